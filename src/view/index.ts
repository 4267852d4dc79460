// mindscope/view: the local viewer (`mindscope view`): a JSON API over a store opened for
// reading, the page built by Vite, and a static export of both.

export type * from './api-types.js';
export { viewerApi, trialQueryOf } from './api.js';
export { startViewer, type Viewer } from './server.js';
export { VIEW_TOKEN_ENV } from './access-guard.js';
export { exportViewer } from './static-export.js';
export { servedPanels, type ServedPanels } from './panels.js';
