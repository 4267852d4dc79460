// Parquet rows as plain objects, with the reader loaded on first use (it is not needed by most
// commands, and every import costs start-up time).

/** The rows of a Parquet file as plain objects (the reader and its codecs are loaded on first use). */
export async function readParquetRows(file: ArrayBuffer): Promise<Array<Record<string, unknown>>> {
  const [{ parquetReadObjects }, { compressors }] = await Promise.all([import('hyparquet'), import('hyparquet-compressors')]);
  return (await parquetReadObjects({ file, compressors })) as Array<Record<string, unknown>>;
}
