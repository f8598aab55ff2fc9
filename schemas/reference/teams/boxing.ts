import { playersOf } from './define.js';
import type { TeamSeed } from './define.js';

const boxer = playersOf('boxing', 'boxing');

/** Professional boxing: the champions and the draws of 2025. */
export const BOXING: readonly TeamSeed[] = [
  boxer('Oleksandr Usyk', { aliases: ['Aleksandr Usyk'] }),
  boxer('Canelo Alvarez', { aliases: ['Saul Alvarez', 'Saul Canelo Alvarez', 'Alvarez S.', 'Canelo'] }),
  boxer('Terence Crawford', { aliases: ['Bud Crawford'] }),
  boxer('Naoya Inoue'),
  boxer('Dmitry Bivol', { aliases: ['Dmitrii Bivol'] }),
  boxer('Artur Beterbiev'),
  boxer('Gervonta Davis', { aliases: ['Tank Davis'] }),
  boxer('Shakur Stevenson'),
  boxer('Devin Haney'),
  boxer('Ryan Garcia'),
  boxer('Jaron Ennis', { aliases: ['Boots Ennis'] }),
  boxer('David Benavidez'),
  boxer('Daniel Dubois'),
  boxer('Anthony Joshua'),
  boxer('Tyson Fury'),
  boxer('Jake Paul'),
  boxer('Teofimo Lopez'),
  boxer('Junto Nakatani'),
  boxer('Jesse Rodriguez', { aliases: ['Bam Rodriguez'] }),
  boxer('Joseph Parker'),
  boxer('Jai Opetaia'),
];
