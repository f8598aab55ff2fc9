import { playersOf } from './define.js';
import type { TeamSeed } from './define.js';

const tableTennis = playersOf('table_tennis', 'wtt');

/** World Table Tennis: men's and women's top players. Chinese and Korean names family first. */
export const TABLE_TENNIS: readonly TeamSeed[] = [
  tableTennis('Wang Chuqin', { familyFirst: true }),
  tableTennis('Lin Shidong', { familyFirst: true }),
  tableTennis('Hugo Calderano'),
  tableTennis('Tomokazu Harimoto'),
  tableTennis('Truls Moregard', { aliases: ['Truls Möregård'] }),
  tableTennis('Liang Jingkun', { familyFirst: true }),
  tableTennis('Felix Lebrun'),
  tableTennis('Alexis Lebrun'),
  tableTennis('Lin Yun-Ju', { familyFirst: true, aliases: ['Lin Yun Ju'] }),
  tableTennis('Dang Qiu'),
  tableTennis('Fan Zhendong', { familyFirst: true }),
  tableTennis('Ma Long', { familyFirst: true }),
  tableTennis('Jang Woo-jin', { familyFirst: true }),
  tableTennis('Sun Yingsha', { familyFirst: true }),
  tableTennis('Wang Manyu', { familyFirst: true }),
  tableTennis('Chen Xingtong', { familyFirst: true }),
  tableTennis('Wang Yidi', { familyFirst: true }),
  tableTennis('Kuai Man', { familyFirst: true }),
  tableTennis('Hina Hayata'),
  tableTennis('Miwa Harimoto'),
  tableTennis('Mima Ito'),
  tableTennis('Shin Yu-bin', { familyFirst: true }),
  tableTennis('Cheng I-Ching', { familyFirst: true }),
  tableTennis('Bernadette Szocs', { aliases: ['Bernadette Szőcs'] }),
];
