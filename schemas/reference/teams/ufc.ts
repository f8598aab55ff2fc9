import { playersOf } from './define.js';
import type { TeamSeed } from './define.js';

const ufc = playersOf('mma', 'ufc');

/** UFC: champions and top contenders of 2025. */
export const UFC: readonly TeamSeed[] = [
  ufc('Islam Makhachev'),
  ufc('Ilia Topuria'),
  ufc('Alex Pereira', { aliases: ['Poatan'] }),
  ufc('Magomed Ankalaev'),
  ufc('Tom Aspinall'),
  ufc('Dricus Du Plessis', { aliases: ['Dricus du Plessis', 'DDP'] }),
  ufc('Khamzat Chimaev'),
  ufc('Merab Dvalishvili'),
  ufc('Alexandre Pantoja'),
  ufc('Belal Muhammad'),
  ufc('Jack Della Maddalena', { aliases: ['JDM'] }),
  ufc('Charles Oliveira', { aliases: ['Do Bronx'] }),
  ufc('Arman Tsarukyan'),
  ufc('Justin Gaethje'),
  ufc('Max Holloway'),
  ufc('Alexander Volkanovski', { aliases: ['Alex Volkanovski'] }),
  ufc('Diego Lopes'),
  ufc("Sean O'Malley", { aliases: ['Sean OMalley', "Suga Sean O'Malley"] }),
  ufc('Ciryl Gane'),
  ufc('Kayla Harrison'),
  ufc('Valentina Shevchenko'),
  ufc('Weili Zhang', { aliases: ['Zhang Weili'] }),
];
