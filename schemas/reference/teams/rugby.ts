import { teamsOf } from './define.js';
import type { TeamSeed } from './define.js';

const premiership = teamsOf('rugby', 'premiership_rugby');
const nrl = teamsOf('rugby_league', 'nrl');

/** Premiership Rugby 2025/26: all 10 clubs (Newcastle Falcons became Newcastle Red Bulls). */
export const PREMIERSHIP_RUGBY: readonly TeamSeed[] = [
  premiership('Bath Rugby', 'BAT', ['Bath']),
  premiership('Bristol Bears', 'BRI', ['Bristol', 'Bristol Rugby']),
  premiership('Exeter Chiefs', 'EXE', ['Exeter']),
  premiership('Gloucester Rugby', 'GLO', ['Gloucester']),
  premiership('Harlequins', 'HAR', ['Quins']),
  premiership('Leicester Tigers', 'LEI', ['Leicester', 'Tigers']),
  premiership('Newcastle Red Bulls', 'NEW', ['Newcastle', 'Newcastle Falcons', 'Falcons']),
  premiership('Northampton Saints', 'NOR', ['Northampton', 'Saints']),
  premiership('Sale Sharks', 'SAL', ['Sale', 'Sharks']),
  premiership('Saracens', 'SAR', ['Sarries']),
];

/** NRL: all 17 clubs. */
export const NRL: readonly TeamSeed[] = [
  nrl('Brisbane Broncos', 'BRI', ['Brisbane', 'Broncos']),
  nrl('Canberra Raiders', 'CAN', ['Canberra', 'Raiders']),
  nrl('Canterbury Bulldogs', 'CBY', ['Canterbury-Bankstown Bulldogs', 'Canterbury', 'Bulldogs']),
  nrl('Cronulla Sutherland Sharks', 'CRO', ['Cronulla-Sutherland Sharks', 'Cronulla Sharks', 'Cronulla', 'Sharks']),
  nrl('Dolphins', 'DOL', ['The Dolphins', 'Redcliffe Dolphins']),
  nrl('Gold Coast Titans', 'GCT', ['Gold Coast', 'Titans']),
  nrl('Manly Warringah Sea Eagles', 'MAN', ['Manly-Warringah Sea Eagles', 'Manly Sea Eagles', 'Manly', 'Sea Eagles']),
  nrl('Melbourne Storm', 'MEL', ['Melbourne', 'Storm']),
  nrl('Newcastle Knights', 'NEW', ['Newcastle', 'Knights']),
  nrl('New Zealand Warriors', 'NZW', ['NZ Warriors', 'Warriors']),
  nrl('North Queensland Cowboys', 'NQL', ['North Queensland', 'NQ Cowboys', 'Cowboys']),
  nrl('Parramatta Eels', 'PAR', ['Parramatta', 'Eels']),
  nrl('Penrith Panthers', 'PEN', ['Penrith', 'Panthers']),
  nrl('South Sydney Rabbitohs', 'SOU', ['South Sydney', 'Souths', 'Rabbitohs']),
  nrl('St George Illawarra Dragons', 'SGI', ['St. George Illawarra Dragons', 'St George Illawarra', 'St George Dragons', 'Dragons']),
  nrl('Sydney Roosters', 'SYD', ['Roosters', 'Eastern Suburbs Roosters']),
  nrl('Wests Tigers', 'WST', ['Tigers']),
];
