// What the install says to a repository with a biome config. The files we generate carry `biome-ignore-all format`
// and `biome-ignore-all lint` (docs/guard-file.md, "Linters"): biome 2 honours the lint one, but only newer releases
// the format one (2.6.8 does, measured; 2.2.5 does not, reported), so an older or unpinned biome gets our entries in
// its config (biome-config.ts), or, with --no-biome-edit, the exact entries to add.

/** The oldest biome assumed to honour `biome-ignore-all format`: 2.2.5 is known not to, 2.6.8 is measured to. */
const FORMAT_MARKER_SINCE: readonly [number, number] = [2, 4];

/** The biome version a repository pins: its biome.json's $schema, else package.json's @biomejs/biome. */
export function biomeVersion(config: string | null, pkg: string | null): [number, number] | null {
  const schema = /biomejs\.dev\/schemas\/(\d+)\.(\d+)\.\d+\/schema\.json/.exec(config ?? '');
  const dep = /"@biomejs\/biome"\s*:\s*"[~^=v\s]*(\d+)\.(\d+)/.exec(pkg ?? '');
  const m = schema ?? dep;
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** Whether the config needs our entries: a pinned biome before 2.4, or none pinned (it may be any release). */
export function biomeNeedsEdit(version: [number, number] | null): boolean {
  if (version === null) return true;
  const [major, minor] = version;
  return major < FORMAT_MARKER_SINCE[0] || (major === FORMAT_MARKER_SINCE[0] && minor < FORMAT_MARKER_SINCE[1]);
}

/** The files.includes entries that keep biome off what we generate (biome 2's negated globs; biome 1's
 *  files.ignore takes the plain paths). */
export function biomeExcludes(generated: readonly string[], version: [number, number] | null = null): string[] {
  return generated.map((p) => (version?.[0] === 1 ? `"${p}"` : `"!${p}"`));
}

/** The notice: what the markers do for this biome, and what the plan does to its config (or what to add by hand). */
export function biomeNotice(
  file: string,
  version: [number, number] | null,
  generated: readonly string[],
  edited = false,
  inherits?: string,
): string {
  if (!biomeNeedsEdit(version))
    return (
      `Biome config found (${file}): the files we generate carry biome-ignore-all markers, so \`biome check\` ` +
      `leaves them alone.`
    );
  const which = version ? `biome ${version[0]}.${version[1]}` : 'biome version not pinned';
  const key = version?.[0] === 1 ? 'files.ignore' : 'files.includes';
  const why = version?.[0] === 1 ? 'which biome 1 does not read' : 'which biome before 2.4 honours for lint only';
  const entries = biomeExcludes(generated, version).join(', ');
  if (edited)
    return (
      `Biome config found (${file}), ${which}: the files we generate carry biome-ignore-all markers, ${why}, so ` +
      `${key} in ${file} gets ${entries} (a recorded change: --remove takes it out; --no-biome-edit leaves ${file} ` +
      `alone).`
    );
  if (inherits)
    return (
      `Biome config found (${file}), ${which}: the files we generate carry biome-ignore-all markers, ${why}. ` +
      `${file} takes "${key}" from ${inherits}, and a list written in ${file} would replace that one, so ${file} is ` +
      `left as it is: to keep biome off them, add ${entries} to that list (in ${inherits}, or in a copy of it in ` +
      `${file})`
    );
  return (
    `Biome config found (${file}), ${which}: the files we generate carry biome-ignore-all markers, ${why}. To ` +
    `keep biome off them, add to "${key}" in ${file}${key === 'files.includes' ? ' (after "**" if it has no list yet)' : ''}: ${entries}`
  );
}
