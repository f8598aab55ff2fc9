import { playersOf } from './define.js';
import type { TeamSeed } from './define.js';

const snooker = playersOf('snooker', 'world_snooker_tour');

/** World Snooker Tour: the top of the 2025 ranking. Chinese names are family name first. */
export const SNOOKER: readonly TeamSeed[] = [
  snooker('Judd Trump'),
  snooker('Kyren Wilson'),
  snooker('Mark Selby'),
  snooker("Ronnie O'Sullivan", { aliases: ['Ronnie OSullivan'] }),
  snooker('Mark Allen'),
  snooker('Neil Robertson'),
  snooker('John Higgins'),
  snooker('Mark Williams'),
  snooker('Zhao Xintong', { familyFirst: true }),
  snooker('Ding Junhui', { familyFirst: true }),
  snooker('Shaun Murphy'),
  snooker('Luca Brecel'),
  snooker('Barry Hawkins'),
  snooker('Ali Carter'),
  snooker('Xiao Guodong', { familyFirst: true }),
  snooker('Si Jiahui', { familyFirst: true }),
  snooker('Jak Jones'),
  snooker('Zhang Anda', { familyFirst: true }),
  snooker('Chris Wakelin'),
  snooker('Wu Yize', { familyFirst: true }),
];
