import { playersOf } from './define.js';
import type { TeamSeed } from './define.js';

const driver = playersOf('motorsports', 'f1');

/** Formula 1: the 2025 and 2026 grids. Abbreviations are the FIA timing codes. */
export const F1: readonly TeamSeed[] = [
  driver('Max Verstappen', { abbreviation: 'VER' }),
  driver('Lando Norris', { abbreviation: 'NOR' }),
  driver('Oscar Piastri', { abbreviation: 'PIA' }),
  driver('Charles Leclerc', { abbreviation: 'LEC' }),
  driver('Lewis Hamilton', { abbreviation: 'HAM' }),
  driver('George Russell', { abbreviation: 'RUS' }),
  driver('Andrea Kimi Antonelli', { abbreviation: 'ANT', surname: 'Antonelli', aliases: ['Kimi Antonelli'] }),
  driver('Fernando Alonso', { abbreviation: 'ALO' }),
  driver('Lance Stroll', { abbreviation: 'STR' }),
  driver('Pierre Gasly', { abbreviation: 'GAS' }),
  driver('Franco Colapinto', { abbreviation: 'COL' }),
  driver('Alexander Albon', { abbreviation: 'ALB', aliases: ['Alex Albon'] }),
  driver('Carlos Sainz', { abbreviation: 'SAI', aliases: ['Carlos Sainz Jr.', 'Carlos Sainz Jr'] }),
  driver('Esteban Ocon', { abbreviation: 'OCO' }),
  driver('Oliver Bearman', { abbreviation: 'BEA', aliases: ['Ollie Bearman'] }),
  driver('Nico Hulkenberg', { abbreviation: 'HUL', aliases: ['Nico Hülkenberg'] }),
  driver('Gabriel Bortoleto', { abbreviation: 'BOR' }),
  driver('Liam Lawson', { abbreviation: 'LAW' }),
  driver('Isack Hadjar', { abbreviation: 'HAD' }),
  driver('Yuki Tsunoda', { abbreviation: 'TSU' }),
  driver('Arvid Lindblad', { abbreviation: 'LIN' }),
  driver('Sergio Perez', { abbreviation: 'PER', aliases: ['Checo Perez'] }),
  driver('Valtteri Bottas', { abbreviation: 'BOT' }),
  driver('Jack Doohan', { abbreviation: 'DOO' }),
];
