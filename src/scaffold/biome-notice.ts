// What the install says to a repository with a biome config. The files we generate carry `biome-ignore-all format`
// and `biome-ignore-all lint` (docs/guard-file.md, "Linters"): biome 2 honours the lint one, but only newer releases
// the format one (2.6.8 does, measured; 2.2.5 does not, reported), so an older biome gets the exact entry to add.

/** The oldest biome assumed to honour `biome-ignore-all format`: 2.2.5 is known not to, 2.6.8 is measured to. */
const FORMAT_MARKER_SINCE: readonly [number, number] = [2, 4];

/** The biome version a repository pins: its biome.json's $schema, else package.json's @biomejs/biome. */
export function biomeVersion(config: string | null, pkg: string | null): [number, number] | null {
  const schema = /biomejs\.dev\/schemas\/(\d+)\.(\d+)\.\d+\/schema\.json/.exec(config ?? '');
  const dep = /"@biomejs\/biome"\s*:\s*"[~^=v\s]*(\d+)\.(\d+)/.exec(pkg ?? '');
  const m = schema ?? dep;
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** The files.includes entries that keep biome off what we generate (biome 2's negated globs). */
export function biomeExcludes(generated: readonly string[]): string[] {
  return generated.map((p) => `"!${p}"`);
}

/** The notice: null when the pinned biome honours the markers; else what to add to files.includes, exactly. */
export function biomeNotice(file: string, version: [number, number] | null, generated: readonly string[]): string {
  const [major, minor] = version ?? [0, 0];
  const honours =
    version !== null &&
    (major > FORMAT_MARKER_SINCE[0] || (major === FORMAT_MARKER_SINCE[0] && minor >= FORMAT_MARKER_SINCE[1]));
  const entries = biomeExcludes(generated).join(', ');
  if (honours)
    return (
      `Biome config found (${file}): the files we generate carry biome-ignore-all markers, so \`biome check\` ` +
      `leaves them alone.`
    );
  return (
    `Biome config found (${file}), ${version ? `biome ${major}.${minor}` : 'biome version not pinned'}: the files ` +
    `we generate carry biome-ignore-all markers, which biome before 2.4 honours for lint only. To keep its ` +
    `formatter off them too, add to "files": { "includes": [...] } in ${file} (after "**" if it has no list yet): ${entries}`
  );
}
