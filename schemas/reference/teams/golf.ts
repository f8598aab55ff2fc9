import { playersOf } from './define.js';
import type { TeamSeed } from './define.js';

const golfer = playersOf('golf', 'pga');

/** PGA Tour: the top of the 2025 FedEx Cup and world ranking. */
export const PGA: readonly TeamSeed[] = [
  golfer('Scottie Scheffler'),
  golfer('Rory McIlroy'),
  golfer('Xander Schauffele'),
  golfer('Collin Morikawa'),
  golfer('Ludvig Aberg', { aliases: ['Ludvig Åberg'] }),
  golfer('Tommy Fleetwood'),
  golfer('Justin Thomas'),
  golfer('Patrick Cantlay'),
  golfer('Viktor Hovland'),
  golfer('Hideki Matsuyama'),
  golfer('Russell Henley'),
  golfer('Sepp Straka'),
  golfer('Keegan Bradley'),
  golfer('Shane Lowry'),
  golfer('Sungjae Im'),
  golfer('Wyndham Clark'),
  golfer('Tony Finau'),
  golfer('Jordan Spieth'),
  golfer('Sam Burns'),
  golfer('Cameron Young'),
  golfer('Ben Griffin'),
  golfer('J.J. Spaun', { aliases: ['JJ Spaun'] }),
  golfer('Harris English'),
  golfer('Robert MacIntyre', { aliases: ['Bob MacIntyre'] }),
  golfer('Tom Kim', { aliases: ['Joohyung Kim'] }),
];
