// Every test worker gets its own guard state folder: the in-process plugins (OpenCode, Kilo, Cline) keep a loop's
// counts in files there, and a developer's own folder must neither leak into a test nor keep counts between runs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.LOOP_GUARD_STATE_DIR = mkdtempSync(join(tmpdir(), 'lg-worker-state-'));
