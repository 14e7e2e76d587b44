import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkHang, HANG_RULES, type HangContext } from '../../src/guard/core/hang/rules.ts';
import { interactiveTableNames } from '../../src/guard/core/hang/interactive.ts';
import type { ToolName } from '../../src/guard/core/types.ts';
import { TOOL_FACTS } from '../../src/guard/adapters/index.ts';

const TOOLS: readonly ToolName[] = ['claude', 'codex', 'cursor', 'opencode'];
const ctxOf = (tool: ToolName): HangContext => ({ ...TOOL_FACTS[tool], background: false });
const claude: HangContext = ctxOf('claude');
// Claude Code's facts without the GIT_EDITOR=true it sets for its commands: the deny table's view of a blocking tool.
const blocking: HangContext = { ...claude, shellEnv: undefined };
/** The rows that wait only in git's own editor, which Claude Code's GIT_EDITOR=true keeps from waiting. */
const GIT_EDITOR_RULES = new Set(['git-commit-editor', 'git-tag-editor', 'git-rebase-interactive', 'git-editor']);
const waitsInGitEditor = (command: string, rule: string) =>
  GIT_EDITOR_RULES.has(rule) || (rule === 'editor' && /^git [^|]*\bconfig\b/.test(command));
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
  'git commit -m "$(cat <<\'EOF\'\nfeat: add vim mode\n\nUses less memory; see git rebase -i.\nEOF\n)"',
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
  'yarn init -y',
  'bun init -y',
  'pnpm init',
  'npm install',
  'npm ci',
  'npm test',
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
  // near misses of the interactive rules (issue 9): the batch forms, input on stdin, output piped
  'npm run dev -- --help',
  'npm run watch -- --help',
  'npm start -- --help',
  'yes "" | npm init',
  'less -F README.md',
  'less -FRX log.txt',
  'git stash show -p | head',
  'git stash show -p stash@{1}',
  'npm create vite@latest my-app -- --template react',
  'npm init vite@latest my-app -- --template react-ts',
  'yarn create vite my-app --template react',
  'pnpm create vite my-app --template vue-ts',
  'bun create vite my-app --template react',
  'npx create-next-app@latest my-app --yes',
  'npx create-next-app@latest my-app --ts --tailwind --eslint --app --src-dir --use-npm',
  'CI=1 npx create-next-app my-app',
  'npm create astro@latest my-site -- --yes',
  'npx create-react-app my-app',
  'npm create some-tool@latest my-thing',
  'npm init playwright@latest -- --quiet',
  'python3 script.py',
  'python3 script.py -i',
  'python -V',
  'python3 - <<EOF\nprint(1)\nEOF',
  'echo "print(1)" | python3',
  'node script.js',
  'node --version',
  'node -p "1+1"',
  'node --test',
  'ts-node src/index.ts',
  'tsx src/index.ts',
  'deno run main.ts',
  'ruby -e "puts 1"',
  'bin/rails runner "puts 1"',
  'python manage.py shell -c "print(1)"',
  'php artisan tinker --execute="dump(1)"',
  "psql -c 'select 1'",
  'psql -X -A -t -c "select 1" mydb',
  'psql -f schema.sql',
  'psql mydb < dump.sql',
  'mysql -e "select 1"',
  'mysql -uroot -psecret -e "show databases"',
  'mysql db < script.sql',
  'sqlite3 app.db "select count(*) from users;"',
  'sqlite3 app.db < schema.sql',
  'redis-cli ping',
  'mongosh "$URL" --quiet --eval "db.stats()"',
  'gdb -batch -ex run -ex bt --args ./prog',
  'echo "2^10" | bc',
  'bash script.sh',
  'bash -lc "npm test"',
  'ssh host uptime',
  "ssh host 'cd app && git pull'",
  'ssh -T git@github.com',
  'ssh host < script.sh',
  'ssh -N -f -L 5432:localhost:5432 host',
  'docker run --rm img cmd',
  'docker run --rm -it node:20 node -v',
  'docker run -i --rm img < input.txt',
  'docker exec web npm test',
  'docker exec -it web npm test',
  'kubectl exec web-0 -- ls /app',
  'kubectl exec -it web-0 -- ls',
  'top -b -n 1',
  'top -bn1 | head -20',
  'ps aux --sort=-%cpu | head',
  'ping -c 3 host',
  'ping -c3 example.com',
  'ping -w 5 host',
  'timeout 5 ping host',
  'nc -z localhost 3000',
  'nc -w 2 host 80 < req.txt',
  'man git | cat',
  'man -P cat git',
  'MANPAGER=cat man git',
  'man -k socket',
  'git help',
  'git help -a',
  'git help commit | cat',
  'git help -w commit',
  'gh auth status',
  'gh auth login --with-token < token.txt',
  'echo "$GH_TOKEN" | gh auth login --with-token',
  'npm whoami',
  'echo "$TOKEN" | docker login -u bot --password-stdin',
  'aws configure set region eu-west-1',
  'aws configure list',
  'git merge --no-edit feature',
  'git merge -e --no-edit feature',
  'git cherry-pick a1b2c3d',
  'git revert --no-edit HEAD',
  'git notes add -m "reviewed" HEAD',
  'git notes show HEAD',
  'git notes list',
  'git am 0001-fix.patch',
  'find . -name "*.ts" -exec grep -l TODO {} +',
  'find . -type f -exec sed -i "s/a/b/" {} \\;',
  'xargs -n1 echo < list.txt',
  'EDITOR=true; $EDITOR x',
  'echo "$EDITOR"',
  'tmux new-session -d -s work "npm run dev"',
  'tmux capture-pane -p -t work',
  'screen -dmS work npm run dev',
  'fzf --filter "query" < files.txt',
  'w3m -dump https://example.com',
  'mc ls myminio/bucket',
  'mc cp file.txt myminio/bucket/',
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
  // issue 9: commands that wait for a person and were let through
  ['npm create vite@latest', 'scaffolder', 'npm create vite@latest my-app -- --template react'],
  ['npm init vite', 'scaffolder', '--template react'],
  ['npx create-next-app', 'scaffolder', 'create-next-app@latest my-app --yes'],
  ['yarn create vite', 'scaffolder', '--template'],
  ['pnpm create vite', 'scaffolder', '--template'],
  ['bun create vite', 'scaffolder', '--template'],
  ['pnpm dlx create-vite my-app', 'scaffolder', '--template'],
  ['npm create vite@latest my-app --template react', 'scaffolder', 'before `--`'],
  ['npm create astro@latest', 'scaffolder', '--yes'],
  ['npm create vue@latest', 'scaffolder', '--default'],
  ['npm init @eslint/config', 'scaffolder', '--help'],
  ['python', 'repl', 'python3 script.py'],
  ['python3', 'repl', 'python3 -c'],
  ['python3 -i x.py', 'repl', 'python3 script.py'],
  ['uv run python', 'repl', 'python3 script.py'],
  ['node', 'repl', 'node script.js'],
  ['node -i', 'repl', 'node -e'],
  ['ipython', 'repl', 'ipython -c'],
  ['irb', 'repl', 'ruby -e'],
  ['rails console', 'repl', 'rails runner'],
  ['python manage.py shell', 'repl', 'shell -c'],
  ['python -m pdb app.py', 'repl', 'python3 script.py'],
  ['psql', 'repl', 'psql -c'],
  ['psql -h db -U app mydb', 'repl', 'psql -f script.sql'],
  ['mysql -p', 'repl', '-e'],
  ['mysql -u root mydb', 'repl', 'mysql -e'],
  ['sqlite3', 'repl', 'sqlite3 app.db "select'],
  ['sqlite3 app.db', 'repl', 'sqlite3 app.db < script.sql'],
  ['redis-cli -h cache', 'repl', 'redis-cli ping'],
  ['mongosh', 'repl', '--eval'],
  ['gdb ./prog', 'repl', 'gdb -batch'],
  ['bash', 'repl', 'bash script.sh'],
  ['ssh host', 'remote-shell', "ssh host 'uptime'"],
  ['ssh -i key.pem ubuntu@10.0.0.5', 'remote-shell', "ssh host 'uptime'"],
  ['docker run -it ubuntu bash', 'remote-shell', 'Without -it'],
  ['docker run -it --rm node:20', 'remote-shell', 'docker run --rm <image> <command>'],
  ['docker exec -it web sh', 'remote-shell', 'docker exec <container> <command>'],
  ['docker exec -it db psql -U postgres', 'remote-shell', 'Without -it'],
  ['kubectl exec -it web-0 -- sh', 'remote-shell', 'kubectl exec web-0 -- sh -c'],
  ['kubectl exec -ti web-0 -- /bin/bash', 'remote-shell', 'Without -it'],
  ['top', 'full-screen', 'top -b -n 1'],
  ['htop', 'full-screen', 'ps aux'],
  ['lazygit', 'full-screen', 'git status'],
  ['tmux attach -t work', 'full-screen', 'tmux new-session -d'],
  ['ls | fzf', 'full-screen', '--filter'],
  ['ping host', 'endless', 'ping -c 3 host'],
  ['ping 8.8.8.8', 'endless', 'ping -c 3'],
  ['nc -l 8080', 'dev-server', 'nc -l listens'],
  ['man git', 'manual', 'man -P cat'],
  ['info grep', 'manual', 'info <topic> | cat'],
  ['git help commit', 'manual', 'git commit -h'],
  ['git help rebase', 'manual', 'man -P cat git-rebase'],
  ['npm start', 'dev-server', 'in the background'],
  ['yarn start', 'dev-server', 'in the background'],
  ['npm run preview', 'dev-server', 'in the background'],
  ['gh auth login', 'login', 'gh auth login --with-token'],
  ['npm login', 'login', 'npm config set //registry.npmjs.org/:_authToken'],
  ['npm adduser', 'login', '_authToken'],
  ['docker login', 'login', '--password-stdin'],
  ['aws configure', 'login', 'aws configure set'],
  ['gcloud auth login', 'login', 'activate-service-account'],
  ['git merge --edit feature', 'git-editor', '--no-edit'],
  ['git merge -e feature', 'git-editor', '-m "'],
  ['git cherry-pick -e a1b2c3d', 'git-editor', 'keeps the original message'],
  ['git revert --edit HEAD', 'git-editor', 'Without -e/--edit'],
  ['git notes add', 'git-editor', 'git notes add -m'],
  ['git notes edit HEAD', 'git-editor', '-F note.txt'],
  ['git am -i 0001-fix.patch', 'git-interactive', 'git am 0001-fix.patch'],
  ['git stash -p', 'git-interactive', 'git stash push --'],
  ['xargs vim', 'editor', 'sed -i'],
  ['git ls-files -m | xargs -o vim', 'editor', 'sed -i'],
  ['find . -name "*.ts" -exec vim {} +', 'editor', 'sed -i'],
  ['find . -name x.md -execdir nano {} \\;', 'editor', 'sed -i'],
  ['$EDITOR src/app.ts', 'editor', 'sed -i'],
  ['"${VISUAL:-vi}" notes.md', 'editor', 'file-editing tool'],
  ['$PAGER log.txt', 'pager', 'head -n 100'],
  // PowerShell (more in hang-powershell.test.ts)
  ['Read-Host "Continue?"', 'prompt', 'environment variable'],
  ['Get-Content .\\logs\\app.log -Wait', 'follow', '-Tail 50'],
  ['notepad $PROFILE', 'editor', 'Set-Content'],
];

const LONG_RUNNING = new Set(['follow', 'watch', 'watch-mode', 'dev-server', 'endless']);

describe('checkHang: commands that wait are refused', () => {
  it(`has a long deny table (${DENIED.length})`, () => {
    expect(DENIED.length).toBeGreaterThanOrEqual(40);
  });

  it.each(DENIED.map(([c, r, t]) => [c, r, t]))('%j → %s', (command, rule, alternative) => {
    const verdict = checkHang(command, blocking);
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
      const message = checkHang(command, blocking)!.message;
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

  it.each(interactive.map(([c, r]) => [c, r]))(
    'editors, pagers and prompts are refused everywhere: %j',
    (command, rule) => {
      for (const tool of TOOLS) {
        if (tool === 'claude' && waitsInGitEditor(command, rule)) continue;
        for (const background of [false, true]) {
          expect(checkHang(command, { ...TOOL_FACTS[tool], background })?.rule).toBe(rule);
        }
      }
    },
  );

  it.each(interactive.map(([c, r]) => [c, r]))(
    "Claude Code's GIT_EDITOR=true runs only git's editor rows: %j",
    (command, rule) => {
      const verdict = checkHang(command, claude);
      if (waitsInGitEditor(command, rule)) expect(verdict).toBeNull();
      else expect(verdict?.rule).toBe(rule);
    },
  );

  it('still refuses a git editor the line itself sets, in Claude Code too', () => {
    expect(interactive.filter(([c, r]) => waitsInGitEditor(c, r)).length).toBeGreaterThanOrEqual(15);
    expect(checkHang('GIT_EDITOR=vim git commit', claude)?.rule).toBe('git-commit-editor');
    expect(checkHang('GIT_SEQUENCE_EDITOR=nano git rebase -i main', claude)?.rule).toBe('git-rebase-interactive');
    // real (a public Windows session, Claude Code 2.1.2xx): it ran, with the todo list as written
    expect(
      checkHang('cd D:/oh-my-posh && git rebase --autosquash -i HEAD~6 2>&1 <<< \'\' ; echo "EXIT:$?"', claude),
    ).toBeNull();
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

describe('checkHang: the interactive table', () => {
  it('gates on exactly the program names it has rows for (a name missing from the gate would never be checked)', () => {
    const { gate, table } = interactiveTableNames();
    expect(gate).toEqual(table);
  });

  it.each([
    ['psql', 'psql -c', 'psql < q.sql'],
    ['python3', 'python3 -c', 'echo "print(1)" | python3'],
    ['ssh host', "ssh host 'uptime'", 'ssh host < script.sh'],
    ['npm init', 'npm init -y', 'yes "" | npm init'],
    ['npm create vite@latest', '--template', 'yes "" | npm create vite@latest'],
  ])('%j is refused naming %j, and runs with its input on stdin: %j', (plain, form, fed) => {
    expect(checkHang(plain, claude)?.message).toContain(form);
    expect(checkHang(fed, claude)).toBeNull();
  });

  it('refuses the interactive forms in every tool, even in the background', () => {
    for (const tool of TOOLS) {
      for (const c of ['python', 'ssh host', 'top', 'man git', 'gh auth login', 'npx create-next-app']) {
        expect(checkHang(`${c} &`, { ...TOOL_FACTS[tool], background: true }), `${tool}: ${c}`).not.toBeNull();
      }
    }
  });
});

describe('checkHang: robustness', () => {
  it('never throws and only returns known rules on arbitrary input', () => {
    const piece = fc.constantFrom(
      'vim',
      'less',
      'git',
      'commit',
      '-m',
      'x',
      'npm',
      'run',
      'dev',
      'tail',
      '-f',
      '|',
      '&&',
      '&',
      ';',
      '"',
      "'",
      '$(',
      ')',
      '`',
      '<<EOF',
      '\nEOF\n',
      'nohup',
      'timeout',
      '10',
      '{',
      '}',
      '(',
      '\n',
      '>',
      '2>&1',
      '#',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }),
        fc.constantFrom(...TOOLS),
        fc.boolean(),
        (parts, tool, background) => {
          const verdict = checkHang(parts.join(' '), { ...TOOL_FACTS[tool], background });
          if (verdict) {
            expect(RULE_IDS.has(verdict.rule)).toBe(true);
            expect(verdict.message.startsWith('loop-guard: ')).toBe(true);
            expect(verdict.message.length).toBeLessThan(600);
          }
        },
      ),
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
