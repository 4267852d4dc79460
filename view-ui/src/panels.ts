// The panel components of the built-in studies, by protocol: every src/studies/*/view/panels.tsx
// is compiled into the page (the page knows the pattern, not the studies). A user plugin's panel
// is a script the page imports when a trial names it (protocol.tsx).

import type { PanelComponents } from './panel-kit.js';

const modules = import.meta.glob<{ panels: PanelComponents }>('../../src/studies/*/view/panels.tsx', { eager: true });

/** The built-in panel component of each protocol. */
export const PANELS: PanelComponents = Object.assign({}, ...Object.values(modules).map((m) => m.panels));
