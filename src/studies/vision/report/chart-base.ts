// What every vision figure's Vega-Lite spec starts from: the schema and the font.

export const BASE = {
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  config: { font: 'DejaVu Sans, Helvetica, Arial, sans-serif', view: { stroke: null } },
};
