export * from './charts.js';
export * from './html-report.js';
export * from './text-table.js';
export * from './subject-names.js';
export * from './audit-report.js';
export * from './episode-report.js';
export * from './vision-report.js';
export * from './png.js';
