import { playersOf } from './define.js';
import type { TeamSeed } from './define.js';

const atp = playersOf('tennis', 'atp');
const wta = playersOf('tennis', 'wta');

/** ATP Tour: the top of the 2025 ranking. Players are the "teams" of their matches. */
export const ATP: readonly TeamSeed[] = [
  atp('Jannik Sinner'),
  atp('Carlos Alcaraz'),
  atp('Alexander Zverev', { aliases: ['Alex Zverev', 'Sascha Zverev'] }),
  atp('Novak Djokovic'),
  atp('Taylor Fritz', { aliases: ['Taylor Harry Fritz'] }),
  atp('Jack Draper'),
  atp('Ben Shelton'),
  atp('Lorenzo Musetti'),
  atp('Alex de Minaur', { aliases: ['Alex De Minaur'] }),
  atp('Holger Rune'),
  atp('Daniil Medvedev'),
  atp('Casper Ruud'),
  atp('Tommy Paul'),
  atp('Andrey Rublev', { aliases: ['Andrei Rublev'] }),
  atp('Alexander Bublik'),
  atp('Karen Khachanov'),
  atp('Felix Auger-Aliassime', { aliases: ['Felix Auger Aliassime'] }),
  atp('Jakub Mensik'),
  atp('Joao Fonseca'),
  atp('Frances Tiafoe'),
  atp('Stefanos Tsitsipas'),
  atp('Francisco Cerundolo'),
];

/** WTA Tour: the top of the 2025 ranking. */
export const WTA: readonly TeamSeed[] = [
  wta('Aryna Sabalenka'),
  wta('Iga Swiatek'),
  wta('Coco Gauff', { aliases: ['Cori Gauff'] }),
  wta('Jessica Pegula'),
  wta('Elena Rybakina'),
  wta('Mirra Andreeva'),
  wta('Madison Keys'),
  wta('Jasmine Paolini'),
  wta('Qinwen Zheng', { aliases: ['Zheng Qinwen'] }),
  wta('Amanda Anisimova'),
  wta('Emma Navarro'),
  wta('Paula Badosa'),
  wta('Elina Svitolina'),
  wta('Karolina Muchova'),
  wta('Belinda Bencic'),
  wta('Ekaterina Alexandrova'),
  wta('Clara Tauson'),
  wta('Liudmila Samsonova', { aliases: ['Ludmilla Samsonova'] }),
  wta('Diana Shnaider'),
  wta('Naomi Osaka'),
  wta('Victoria Mboko'),
  wta('Emma Raducanu'),
];
