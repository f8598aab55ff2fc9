import { readFileSync, writeFileSync } from 'node:fs';
import { renderSettingsTable } from './settings.js';

/** `make config-doc`: rewrites the README's configuration table from the settings table. */
const BEGIN = '<!-- settings:begin (generated from runtime/settings.ts by `make config-doc`) -->';
const END = '<!-- settings:end -->';

export function readmeWithSettings(readme: string): string {
  const from = readme.indexOf(BEGIN);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) throw new Error(`README.md needs the markers ${BEGIN} and ${END}`);
  return `${readme.slice(0, from + BEGIN.length)}\n${renderSettingsTable()}\n${readme.slice(to)}`;
}

if (process.argv[1]?.endsWith('render-settings.ts') || process.argv[1]?.endsWith('render-settings.js')) {
  const file = process.argv[2] ?? 'README.md';
  writeFileSync(file, readmeWithSettings(readFileSync(file, 'utf8')));
}
