import { playersOf } from './define.js';
import type { TeamSeed } from './define.js';

const darts = playersOf('darts', 'pdc');

/** PDC darts: the top of the 2025 Order of Merit. */
export const PDC: readonly TeamSeed[] = [
  darts('Luke Littler'),
  darts('Luke Humphries'),
  darts('Michael van Gerwen', { aliases: ['Michael Van Gerwen', 'MVG'] }),
  darts('Gerwyn Price'),
  darts('Stephen Bunting'),
  darts('Rob Cross'),
  darts('Jonny Clayton'),
  darts('Gary Anderson'),
  darts('Danny Noppert'),
  darts('Nathan Aspinall'),
  darts('Peter Wright', { aliases: ['Snakebite'] }),
  darts('Chris Dobey'),
  darts('Damon Heta'),
  darts('Josh Rock'),
  darts('James Wade'),
  darts('Dave Chisnall'),
  darts('Ross Smith'),
  darts('Gian van Veen', { aliases: ['Gian Van Veen'] }),
  darts('Mike De Decker', { aliases: ['Mike de Decker'] }),
  darts('Martin Schindler'),
];
