// Full-screen programs (monitors, file managers, pagers of menus, terminal multiplexers): they draw and wait for keys.
import { hasAny, HELP, once } from './argv.ts';
import type { Row } from './types.ts';

export const screenRow =
  (what: string, instead: string, ok: (args: string[]) => boolean = () => false): Row =>
  (args) =>
    ok(args) || hasAny(args, HELP)
      ? null
      : {
          rule: 'full-screen',
          why: `${what} draws a full-screen display and keeps redrawing until a key is pressed to quit. ${instead}`,
        };

export const PS = 'A snapshot prints and returns: `ps aux --sort=-%cpu | head -n 15`.';
export const TMUX_OK = once(
  () =>
    new Set([
      'ls',
      'list-sessions',
      'list-windows',
      'list-panes',
      'send-keys',
      'send',
      'capture-pane',
      'capturep',
      'kill-session',
      'kill-server',
      'kill-window',
      'has-session',
      'has',
      'display-message',
      'display',
      'show-options',
      'set-option',
      'set',
      'split-window',
      'new-window',
      'rename-session',
      'rename-window',
      'source-file',
      'run-shell',
      'wait-for',
      'pipe-pane',
      'resize-pane',
      'select-pane',
      'select-window',
      'list-keys',
      'list-buffers',
      'show-buffer',
      'save-buffer',
      'load-buffer',
      'set-buffer',
      '-V',
    ]),
);
