import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkHang, HANG_RULES, type HangContext } from '../../src/guard/core/hang/rules.ts';
import type { ToolName } from '../../src/guard/core/types.ts';
import { TOOL_FACTS } from '../../src/guard/adapters/index.ts';

const TOOLS: readonly ToolName[] = ['claude', 'codex', 'cursor', 'opencode'];
const ctxOf = (tool: ToolName): HangContext => ({ ...TOOL_FACTS[tool], background: false });
const claude: HangContext = ctxOf('claude');
const RULE_IDS = new Set(HANG_RULES.map((r) => r.rule));

/** Everyday commands that must run: none of them waits for a person. */
const ALLOWED: readonly string[] = [
  // files and text
  'ls',
  'ls -la src/',
  'pwd',
  'cd src && ls',
  'echo vim',
  'echo more',
  'echo "use less memory"',
  "echo 'git commit' > note.txt",
  'grep less file',
  'grep -rn "vim" src/',
  'grep -r "Connection refused" docs/',
  'cat less.txt',
  'cat README.md | head -n 40',
  'head -n 20 file',
  'tail -n 50 log',
  'tail -100 app.log',
  'tail -c 200 out.bin | xxd',
  'wc -l src/*.ts',
  'find . -name "*.ts" | xargs grep -l less',
  'sed -i "s/a/b/" f',
  "sed -i 's/vim/nano/' README.md",
  "perl -pi -e 's/less/fewer/g' notes.md",
  "awk '{print $1}' access.log | sort | uniq -c",
  'jq .name package.json',
  'diff <(sort a) <(sort b)',
  'mkdir -p a/b && touch a/b/c',
  'rm -rf dist',
  'cp a.txt b.txt',
  'mv old.ts new.ts',
  'chmod +x run.sh',
  './run.sh',
  'tar -xzf pkg.tgz',
  'lessc styles.less > out.css',
  'npm i -D moreutils',
  'pip install more-itertools',
  'ls | sort | uniq',
  'git log | less | head',
  'less README.md > copy.md',
  // heredocs and quoting
  "cat <<'EOF' > f\nvim\nEOF",
  "cat > notes.md <<'EOF'\nRun `npm run dev` and then less.\ngit commit\ntail -f log\nEOF",
  'python3 <<EOF\nimport subprocess\nprint("vim")\nEOF',
  "python3 -c 'print(1)'",
  'node -e "console.log(process.version)"',
  'bash -c "echo hi"',
  "sh -c 'ls | wc -l'",
  'echo $(git rev-parse HEAD)',
  'echo "watch out" && ls',
  'echo "npm run dev"',
  'printf "%s\\n" "tail -f"',
  '# only a comment',
  '',
  '   ',
  'true',
  ': noop',
  'export FOO=1; echo $FOO',
  'for f in *.md; do echo "$f"; done',
  'if [ -f x ]; then cat x; fi',
  'while read l; do echo "$l"; done < file',
  'command -v vim',
  'which nano',
  'type less',
  'man git | cat',
  'env | sort',
  'ps aux | grep node',
  'sleep 2 && curl -s localhost:3000',
  'curl -fsSL https://example.com | head',
  // editors in their non-interactive forms
  'vim --version',
  'nvim --headless -c "Lazy sync" -c "qa"',
  "vim -es -c '%s/a/b/g' -c wq file",
  "vim -c '%s/foo/bar/g | wq' file.txt",
  "vim +'%s/x/y/g' +wq file",
  'emacs --batch -l build.el',
  'emacs -Q --batch --eval "(message 1)"',
  'nano --version',
  'code .',
  'code -r src/a.ts',
  'ed -s file < script.ed',
  "printf '%s\\n' ',s/a/b/g' w q | ed -s file",
  'crontab -l',
  'kubectl get deploy -o yaml',
  'KUBE_EDITOR=true kubectl edit deploy/web',
  'visudo -c',
  // git
  'git status',
  'git log',
  'git log --oneline | head',
  'git log --oneline -n 20',
  'git --no-pager log -5',
  'git diff',
  'git diff --stat main...HEAD',
  'git show HEAD',
  'git branch -a',
  'git checkout -b feature/x',
  'git switch main',
  'git commit -m "fix: less noise"',
  "git commit -am 'x'",
  'git commit -m"inline"',
  'git commit --message=done',
  'git commit --amend --no-edit',
  'git commit --amend -m "better"',
  'git -C sub commit -m x',
  'git -c user.name=bot commit -m x',
  'git --git-dir=.git --work-tree=. commit -m x',
  'git commit -F msg.txt',
  'git commit --file=-',
  'git commit -C HEAD',
  'git commit --reuse-message=HEAD~1',
  'git commit --fixup abc123',
  'git commit --fixup=abc123',
  'git commit --fixup=amend:HEAD -m "new message"',
  'git commit --allow-empty -m "ci: retrigger"',
  'git commit -S -m "signed"',
  'git commit --author "A <a@b.c>" -m x',
  'git commit --dry-run',
  'git commit --help',
  'GIT_EDITOR=true git commit',
  'export GIT_EDITOR=true; git commit --amend',
  'git -c core.editor=true commit --amend',
  "git commit -m \"$(cat <<'EOF'\nfeat: add vim mode\n\nUses less memory; see git rebase -i.\nEOF\n)\"",
  'git rebase main',
  'git rebase --continue',
  'git rebase --abort',
  "git rebase -x 'npm test -i' main",
  'GIT_SEQUENCE_EDITOR=: git rebase -i HEAD~3',
  'GIT_SEQUENCE_EDITOR="sed -i -e 2s/pick/fixup/" git rebase -i HEAD~3',
  'git add -A',
  'git add .',
  'git add src/a.ts',
  'git add -u',
  'git add -- -p',
  'git tag v1.0.0',
  'git tag -a v1 -m "release"',
  'git tag -am "release" v1',
  'git tag -d v1',
  'git tag -l "v*"',
  'git push origin main',
  'git pull --rebase',
  'git fetch --all --prune',
  'git merge feature',
  'git merge --no-edit feature',
  'git stash',
  'git stash pop',
  'git reset --hard HEAD~1',
  'git restore src/a.ts',
  'git checkout -- src/a.ts',
  'git clean -fd',
  'git config user.email a@b.c',
  'git difftool --tool-help',
  // package managers and runners
  'npm init -y',
  'npm init --yes',
  'npm init vite@latest my-app -- --template react',
  'npm create vite@latest',
  'yarn init -y',
  'bun init -y',
  'pnpm init',
  'npm install',
  'npm ci',
  'npm test',
  'npm start',
  'npm run build',
  'npm run lint -- --fix',
  'npm run build:dev',
  'npx vitest run',
  'npx vitest run test/a.test.ts',
  'npx vitest',
  'npx tsc --noEmit',
  'npx jest --watchAll=false',
  'CI=true npm test',
  'pnpm install --frozen-lockfile',
  'pnpm build',
  'pnpm vitest run',
  'pnpm --filter web build',
  'yarn build',
  'yarn test',
  'bun test',
  'bun run build',
  'bun install',
  'bun run index.ts',
  'npx next build',
  'npx vite build',
  'vite build --mode production',
  'vite --version',
  'npx prettier --check .',
  'npx eslint . --fix',
  'npx -y create-vite@latest my-app --template react-ts',
  'tsc',
  'tsc -p tsconfig.json',
  'tsc -b',
  'npx webpack --mode production',
  'rollup -c',
  'jest',
  'mocha',
  'node scripts/build.mjs',
  'deno task build',
  'deno test',
  'turbo run build',
  // other ecosystems
  'pytest -x',
  'python3 -m pytest -q',
  'python manage.py migrate',
  'python -m venv .venv',
  'pip install -r requirements.txt',
  'uv run pytest',
  'poetry run python script.py',
  'flask routes',
  'ruff check .',
  'cargo build',
  'cargo test',
  'cargo run --release',
  'go test ./...',
  'go build ./...',
  'make -j4',
  'make test',
  'cmake --build build',
  'rails db:migrate',
  'bundle exec rspec',
  'hugo',
  'mkdocs build',
  'jupyter nbconvert --execute nb.ipynb --to html',
  'php -r "echo 1;"',
  'php artisan migrate',
  'terraform plan',
  'gh pr list',
  'gh pr create --fill',
  // containers and services
  'docker ps',
  'docker build -t app .',
  'docker compose up -d',
  'docker compose up --abort-on-container-exit --exit-code-from tests',
  'docker compose logs --tail 100 web',
  'docker compose -f dev.yml logs web',
  'docker compose run --rm app npm test',
  'docker logs web',
  'kubectl get pods',
  'kubectl logs pod-x --tail=50',
  'journalctl -u nginx -n 50 --no-pager',
  'systemctl status nginx --no-pager',
  // long-running, but handed back
  'npm run dev &',
  'nohup npm run dev > dev.log 2>&1 &',
  'npm run dev > dev.log 2>&1 &',
  '(npm run dev > dev.log 2>&1 &)',
  'setsid npm run dev > /dev/null 2>&1 < /dev/null &',
  'npm run dev & disown',
  'cd web && npm run dev &',
  '{ npm run dev; } > dev.log 2>&1 &',
  'timeout 10 tail -f log',
  'timeout 30s npm run dev',
  'timeout 60 tail -f app.log | grep -m1 ready',
  'nohup python -m http.server 8000 &',
  'tsc --watch &',
];

describe('checkHang: everyday commands pass', () => {
  it(`has a long allow list (${ALLOWED.length})`, () => {
    expect(ALLOWED.length).toBeGreaterThanOrEqual(120);
  });

  for (const tool of TOOLS) {
    it.each(ALLOWED.map((c) => [c]))(`${tool}: %j`, (command) => {
      expect(checkHang(command, ctxOf(tool))).toBeNull();
    });
  }
});

/** [command, rule, text the message must contain: the non-interactive form]. */
const DENIED: ReadonlyArray<readonly [string, string, string]> = [
  // editors
  ['vim notes.md', 'editor', 'sed -i'],
  ['vi file', 'editor', 'file-editing tool'],
  ['nvim .', 'editor', 'heredoc'],
  ['nano README.md', 'editor', 'sed -i'],
  ['emacs -nw file', 'editor', 'emacs --batch'],
  ['emacs file.txt', 'editor', 'emacs --batch'],
  ['pico x', 'editor', 'sed -i'],
  ['micro x', 'editor', 'sed -i'],
  ['joe x', 'editor', 'sed -i'],
  ['sudo vim /etc/hosts', 'editor', 'sed -i'],
  ['vim -R log.txt', 'editor', 'sed -i'],
  ['cd src && vim a.ts', 'editor', 'sed -i'],
  ['for f in *.md; do vim "$f"; done', 'editor', 'sed -i'],
  ['bash -c "vim x"', 'editor', 'sed -i'],
  ['echo $(vim)', 'editor', 'sed -i'],
  ['code --wait file', 'editor', 'Without that flag'],
  ['subl -w file', 'editor', 'Without that flag'],
  ['ed file', 'editor', 'ed -s file'],
  ['ex file', 'editor', 'ex -s file'],
  ['crontab -e', 'editor', 'crontab cron.txt'],
  ['kubectl edit deploy/web', 'editor', 'kubectl patch'],
  ['systemctl edit nginx', 'editor', 'daemon-reload'],
  ['git config --global -e', 'editor', 'git config <key> <value>'],
  // pagers
  ['less file', 'pager', 'head -n 100'],
  ['git log | less', 'pager', 'git --no-pager'],
  ['git diff | less -R', 'pager', 'cat file'],
  ['more README.md', 'pager', 'head -n 100'],
  ['cat big.log | more', 'pager', 'head -n 100'],
  ['most x', 'pager', 'head -n 100'],
  ['less +F app.log', 'pager', 'head -n 100'],
  // git editors
  ['git commit', 'git-commit-editor', 'git commit -m'],
  ['git commit -a', 'git-commit-editor', 'git commit -m'],
  ['git commit --amend', 'git-commit-editor', '--no-edit'],
  ['git -C sub commit', 'git-commit-editor', 'git commit -m'],
  ['git --no-pager -c user.name=x commit -v', 'git-commit-editor', '-F msg.txt'],
  ['git commit -m x -e', 'git-commit-editor', 'git commit -m'],
  ['git commit --squash HEAD~1', 'git-commit-editor', 'git commit -m'],
  ['git commit --fixup=amend:HEAD', 'git-commit-editor', 'git commit -m'],
  ['git commit -c HEAD', 'git-commit-editor', 'git commit -m'],
  ['EDITOR=vim git commit', 'git-commit-editor', 'git commit -m'],
  ['git tag -a v1.0.0', 'git-tag-editor', '-m "Release'],
  ['git tag -s v1.0.0', 'git-tag-editor', '-m "Release'],
  ['git tag -f -a v2', 'git-tag-editor', '-m "Release'],
  ['git rebase -i HEAD~3', 'git-rebase-interactive', 'GIT_SEQUENCE_EDITOR=true'],
  ['git rebase --interactive main', 'git-rebase-interactive', 'git rebase main'],
  ['git -c core.editor=vim rebase -i main', 'git-rebase-interactive', 'git rebase main'],
  ['git add -p', 'git-interactive', 'git add src/file.ts'],
  ['git add --patch src/a.ts', 'git-interactive', 'git add src/file.ts'],
  ['git add -i', 'git-interactive', 'git apply --cached'],
  ['git add -Ap', 'git-interactive', 'git apply --cached'],
  ['git checkout -p', 'git-interactive', 'git restore <path>'],
  ['git restore -p src/a.ts', 'git-interactive', 'git restore <path>'],
  ['git reset -p', 'git-interactive', 'git restore --staged'],
  ['git stash push -p', 'git-interactive', 'git stash push --'],
  ['git clean -fdi', 'git-interactive', 'git clean -n'],
  ['git commit -p -m x', 'git-interactive', 'git commit -m'],
  ['git mergetool', 'git-interactive', 'git diff'],
  // initialisers
  ['npm init', 'npm-init', 'npm init -y'],
  ['npm init -w packages/a', 'npm-init', 'npm init -y'],
  ['yarn init', 'npm-init', 'yarn init -y'],
  ['bun init', 'npm-init', 'bun init -y'],
  // followers
  ['tail -f app.log', 'follow', 'timeout 60'],
  ['tail -F log', 'follow', 'without -f/--follow'],
  ['tail --follow=name log', 'follow', 'without -f/--follow'],
  ['tail -fn 100 log', 'follow', 'without -f/--follow'],
  ['tail -n 100 -f log | grep ERROR', 'follow', 'without -f/--follow'],
  ['journalctl -fu nginx', 'follow', 'without -f/--follow'],
  ['docker logs -f web', 'follow', 'without -f/--follow'],
  ['kubectl logs -n prod pod/x -f', 'follow', 'without -f/--follow'],
  ['docker compose logs --follow', 'follow', 'without -f/--follow'],
  ['watch -n 1 kubectl get pods', 'watch', 'for i in'],
  // watchers
  ['tsc --watch', 'watch-mode', 'nohup tsc --watch'],
  ['tsc -w', 'watch-mode', 'without the watch flag'],
  ['npx jest --watch', 'watch-mode', 'without the watch flag'],
  ['npx vitest --watch', 'watch-mode', 'without the watch flag'],
  ['vitest watch', 'watch-mode', 'without the watch flag'],
  ['webpack --watch', 'watch-mode', 'in the background'],
  ['nodemon app.js', 'watch-mode', 'nohup nodemon app.js'],
  ['node --watch server.js', 'watch-mode', 'in the background'],
  ['tsx watch src/index.ts', 'watch-mode', 'in the background'],
  ['npm run watch', 'watch-mode', 'in the background'],
  ['npm test -- --watch', 'watch-mode', 'in the background'],
  ['cargo watch -x run', 'watch-mode', 'in the background'],
  ['bun --hot index.ts', 'watch-mode', 'in the background'],
  ['vite build --watch', 'watch-mode', 'in the background'],
  // servers
  ['npm run dev', 'dev-server', 'nohup npm run dev > '],
  ['pnpm dev', 'dev-server', 'nohup pnpm dev'],
  ['yarn dev', 'dev-server', 'in the background'],
  ['bun dev', 'dev-server', 'in the background'],
  ['bun run dev', 'dev-server', 'in the background'],
  ['next dev', 'dev-server', 'in the background'],
  ['npx next dev -p 3001', 'dev-server', 'in the background'],
  ['vite', 'dev-server', 'nohup vite'],
  ['npx vite --port 5173', 'dev-server', 'in the background'],
  ['vite preview', 'dev-server', 'in the background'],
  ['python -m http.server', 'dev-server', 'nohup python -m http.server'],
  ['python3 -m http.server 8080', 'dev-server', 'in the background'],
  ['php -S localhost:8000', 'dev-server', 'in the background'],
  ['rails s', 'dev-server', 'in the background'],
  ['bin/rails server -p 3001', 'dev-server', 'in the background'],
  ['flask run', 'dev-server', 'in the background'],
  ['python -m flask run --debug', 'dev-server', 'in the background'],
  ['uvicorn main:app --reload', 'dev-server', 'in the background'],
  ['uv run uvicorn app:app', 'dev-server', 'in the background'],
  ['python manage.py runserver', 'dev-server', 'in the background'],
  ['webpack serve', 'dev-server', 'in the background'],
  ['webpack-dev-server --hot', 'dev-server', 'in the background'],
  ['ng serve', 'dev-server', 'in the background'],
  ['hugo server -D', 'dev-server', 'in the background'],
  ['bundle exec jekyll serve', 'dev-server', 'in the background'],
  ['docker compose up', 'dev-server', 'docker compose up -d'],
  ['docker-compose up --build', 'dev-server', 'docker compose up -d'],
  ['pnpm --filter web dev', 'dev-server', 'in the background'],
  ['yarn workspace web dev', 'dev-server', 'in the background'],
  ['npm run dev -- --port 3000', 'dev-server', 'in the background'],
  ['cd web && npm run dev', 'dev-server', 'in the background'],
  ['npm run dev > dev.log 2>&1', 'dev-server', 'in the background'],
  ['npm run dev | tee dev.log', 'dev-server', 'in the background'],
  ['kubectl port-forward svc/web 8080:80', 'dev-server', 'in the background'],
  ['jupyter lab', 'dev-server', 'in the background'],
  ['streamlit run app.py', 'dev-server', 'in the background'],
  ['deno task dev', 'dev-server', 'in the background'],
  ['turbo dev', 'dev-server', 'in the background'],
];

const LONG_RUNNING = new Set(['follow', 'watch', 'watch-mode', 'dev-server']);

describe('checkHang: commands that wait are refused', () => {
  it(`has a long deny table (${DENIED.length})`, () => {
    expect(DENIED.length).toBeGreaterThanOrEqual(40);
  });

  it.each(DENIED.map(([c, r, t]) => [c, r, t]))('%j → %s', (command, rule, alternative) => {
    const verdict = checkHang(command, claude);
    expect(verdict).not.toBeNull();
    expect(verdict!.rule).toBe(rule);
    expect(RULE_IDS.has(verdict!.rule)).toBe(true);
    expect(verdict!.message.startsWith('loop-guard: ')).toBe(true);
    expect(verdict!.message.length).toBeLessThan(600);
    expect(verdict!.message).toContain(alternative);
    expect(verdict!.message).toContain('was not run');
    expect(verdict!.message).not.toContain('\n');
  });

  it('shows the command, truncated with … when long, and keeps the alternative', () => {
    const long = `npm run dev -- --port 3000 ${'--flag-with-a-long-name '.repeat(40)}`;
    const verdict = checkHang(long, claude)!;
    expect(verdict.message).toMatch(/^loop-guard: `npm run dev -- --port 3000 --flag[^`]*…` was not run/);
    expect(verdict.message.length).toBeLessThan(600);
    expect(verdict.message).toContain('in the background');
  });

  it('names the offending part of a longer line', () => {
    const verdict = checkHang('npm ci && npm run build && npm run dev', claude)!;
    expect(verdict.message).toContain('because of `npm run dev`');
  });

  it('stays under 600 characters for the longest commands of every rule', () => {
    const pad = ' x'.repeat(500);
    for (const [command, rule] of DENIED) {
      const verdict = checkHang(`cd ${'very-long-directory-name/'.repeat(8)} && ${command}${pad}`, claude);
      if (verdict === null) continue; // padding can change the meaning (e.g. a positional after `vite`)
      expect(verdict.rule).toBe(rule);
      expect(verdict.message.length).toBeLessThan(600);
    }
  });

  it('writes factual messages, not commands aimed at the model', () => {
    for (const [command] of DENIED) {
      const message = checkHang(command, claude)!.message;
      expect(message).not.toMatch(/\b(?:you must|ignore previous|do not)\b/i);
      expect(message).not.toMatch(/\b(?:IMPORTANT|SYSTEM|STOP)\b/);
    }
  });

  it('lists every rule once in HANG_RULES, each with a summary', () => {
    expect(RULE_IDS.size).toBe(HANG_RULES.length);
    for (const { rule, summary } of HANG_RULES) {
      expect(rule).toMatch(/^[a-z][a-z-]+$/);
      expect(summary.length).toBeGreaterThan(10);
    }
    for (const [, rule] of DENIED) expect(RULE_IDS.has(rule)).toBe(true);
    expect(new Set(DENIED.map(([, r]) => r))).toEqual(RULE_IDS);
  });
});

describe('checkHang: exemptions for long-running commands', () => {
  const longRunning = DENIED.filter(([, rule]) => LONG_RUNNING.has(rule));
  const interactive = DENIED.filter(([, rule]) => !LONG_RUNNING.has(rule));

  it.each(longRunning.map(([c]) => [c]))('codex hands control back: %j', (command) => {
    expect(checkHang(command, ctxOf('codex'))).toBeNull();
    expect(checkHang(command, ctxOf('cursor'))).not.toBeNull();
    expect(checkHang(command, ctxOf('opencode'))).not.toBeNull();
  });

  it.each(longRunning.map(([c]) => [c]))('a background call is fine: %j', (command) => {
    for (const tool of TOOLS) expect(checkHang(command, { ...TOOL_FACTS[tool], background: true })).toBeNull();
  });

  it.each(interactive.map(([c, r]) => [c, r]))('editors, pagers and prompts are refused everywhere: %j', (command, rule) => {
    for (const tool of TOOLS) {
      for (const background of [false, true]) {
        expect(checkHang(command, { ...TOOL_FACTS[tool], background })?.rule).toBe(rule);
      }
    }
  });

  it.each([
    ['npm run dev', 'npm run dev &'],
    ['tail -f log', 'tail -f log &'],
    ['npm run dev', 'nohup npm run dev > /tmp/dev.log 2>&1 &'],
    ['npm run dev', 'nohup npm run dev'],
    ['npm run dev', 'setsid npm run dev'],
    ['tail -f log', 'timeout 10 tail -f log'],
    ['npm run dev', 'npm run dev & disown'],
    ['watch ls', 'timeout 5 watch ls'],
    ['tsc --watch', 'tsc --watch > tsc.log 2>&1 &'],
  ])('%j is refused but %j is not', (plain, detached) => {
    expect(checkHang(plain, claude)).not.toBeNull();
    expect(checkHang(detached, claude)).toBeNull();
  });

  it('mentions run_in_background only to Claude Code', () => {
    expect(checkHang('npm run dev', claude)!.message).toContain('run_in_background');
    expect(checkHang('npm run dev', ctxOf('cursor'))!.message).not.toContain('run_in_background');
  });

  it('still refuses an editor that is backgrounded or time-limited', () => {
    expect(checkHang('vim x &', claude)?.rule).toBe('editor');
    expect(checkHang('timeout 5 vim x', claude)?.rule).toBe('editor');
  });
});

describe('checkHang: robustness', () => {
  it('never throws and only returns known rules on arbitrary input', () => {
    const piece = fc.constantFrom(
      'vim', 'less', 'git', 'commit', '-m', 'x', 'npm', 'run', 'dev', 'tail', '-f', '|', '&&', '&', ';', '"', "'",
      '$(', ')', '`', '<<EOF', '\nEOF\n', 'nohup', 'timeout', '10', '{', '}', '(', '\n', '>', '2>&1', '#',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.constantFrom(...TOOLS), fc.boolean(), (parts, tool, background) => {
        const verdict = checkHang(parts.join(' '), { ...TOOL_FACTS[tool], background });
        if (verdict) {
          expect(RULE_IDS.has(verdict.rule)).toBe(true);
          expect(verdict.message.startsWith('loop-guard: ')).toBe(true);
          expect(verdict.message.length).toBeLessThan(600);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('handles non-string and huge input', () => {
    expect(checkHang(undefined as unknown as string, claude)).toBeNull();
    const started = performance.now();
    const heredoc = "cat <<'EOF' > big.txt\n" + 'vim less tail -f | & ;\n'.repeat(20_000) + 'EOF\n';
    expect(checkHang(heredoc, claude)).toBeNull();
    expect(checkHang(heredoc + 'npm run dev', claude)?.rule).toBe('dev-server');
    expect(checkHang('x'.repeat(500_000), claude)).toBeNull();
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
