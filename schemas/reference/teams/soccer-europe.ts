import { teamsOf } from './define.js';
import type { TeamSeed } from './define.js';

const epl = teamsOf('soccer', 'epl');
const laLiga = teamsOf('soccer', 'la_liga');
const serieA = teamsOf('soccer', 'serie_a');
const bundesliga = teamsOf('soccer', 'bundesliga');

/**
 * The English Premier League 2025/26 (20 clubs). Aliases carry the short names of British books
 * and of football-data.co.uk ("Man United", "Nott'm Forest", "Wolves").
 */
export const EPL: readonly TeamSeed[] = [
  epl('Arsenal', 'ARS', ['Arsenal FC']),
  epl('Aston Villa', 'AVL', ['Villa', 'Aston Villa FC']),
  epl('Bournemouth', 'BOU', ['AFC Bournemouth']),
  epl('Brentford', 'BRE', ['Brentford FC']),
  epl('Brighton and Hove Albion', 'BHA', ['Brighton', 'Brighton & Hove Albion', 'Brighton Hove Albion', 'Brighton & Hove Albion FC']),
  epl('Burnley', 'BUR', ['Burnley FC']),
  epl('Chelsea', 'CHE', ['Chelsea FC']),
  epl('Crystal Palace', 'CRY', ['Palace', 'Crystal Palace FC']),
  epl('Everton', 'EVE', ['Everton FC']),
  epl('Fulham', 'FUL', ['Fulham FC']),
  epl('Leeds United', 'LEE', ['Leeds', 'Leeds Utd', 'Leeds United FC']),
  epl('Liverpool', 'LIV', ['Liverpool FC']),
  epl('Manchester City', 'MCI', ['Man City', 'Manchester City FC', 'Man. City']),
  epl('Manchester United', 'MUN', ['Man Utd', 'Man United', 'Manchester Utd', 'Manchester United FC']),
  epl('Newcastle United', 'NEW', ['Newcastle', 'Newcastle Utd', 'Newcastle United FC']),
  epl('Nottingham Forest', 'NFO', ["Nott'm Forest", 'Nottm Forest', 'Forest', 'Nottingham Forest FC']),
  epl('Sunderland', 'SUN', ['Sunderland AFC']),
  epl('Tottenham Hotspur', 'TOT', ['Tottenham', 'Spurs', 'Tottenham Hotspur FC']),
  epl('West Ham United', 'WHU', ['West Ham', 'West Ham Utd', 'West Ham United FC']),
  epl('Wolverhampton Wanderers', 'WOL', ['Wolves', 'Wolverhampton', 'Wolverhampton Wanderers FC']),
];

/** La Liga 2025/26 (20 clubs). */
export const LA_LIGA: readonly TeamSeed[] = [
  laLiga('Alavés', 'ALA', ['Deportivo Alavés', 'Deportivo Alaves']),
  laLiga('Athletic Bilbao', 'ATH', ['Athletic Club', 'Athletic Club Bilbao', 'Ath Bilbao']),
  laLiga('Atlético Madrid', 'ATM', ['Atlético de Madrid', 'Club Atlético de Madrid', 'Ath Madrid', 'Atleti']),
  laLiga('Barcelona', 'BAR', ['FC Barcelona', 'Barca']),
  laLiga('CA Osasuna', 'OSA', ['Osasuna']),
  laLiga('Celta Vigo', 'CEL', ['Celta', 'Celta de Vigo', 'RC Celta', 'RC Celta de Vigo']),
  laLiga('Elche CF', 'ELC', ['Elche']),
  laLiga('Espanyol', 'ESP', ['RCD Espanyol', 'RCD Espanyol de Barcelona', 'Espanol']),
  laLiga('Getafe', 'GET', ['Getafe CF']),
  laLiga('Girona', 'GIR', ['Girona FC']),
  laLiga('Levante', 'LEV', ['Levante UD']),
  laLiga('Mallorca', 'MLL', ['RCD Mallorca']),
  laLiga('Oviedo', 'OVI', ['Real Oviedo']),
  laLiga('Rayo Vallecano', 'RAY', ['Rayo', 'Vallecano', 'Rayo Vallecano de Madrid']),
  laLiga('Real Betis', 'BET', ['Betis', 'Real Betis Balompié']),
  laLiga('Real Madrid', 'RMA', ['Real Madrid CF']),
  laLiga('Real Sociedad', 'RSO', ['Sociedad', 'Real Sociedad de Fútbol']),
  laLiga('Sevilla', 'SEV', ['Sevilla FC', 'Seville']),
  laLiga('Valencia', 'VAL', ['Valencia CF']),
  laLiga('Villarreal', 'VIL', ['Villarreal CF']),
];

/** Serie A 2025/26 (20 clubs). */
export const SERIE_A: readonly TeamSeed[] = [
  serieA('AC Milan', 'MIL', ['Milan']),
  serieA('AS Roma', 'ROM', ['Roma']),
  serieA('Atalanta BC', 'ATA', ['Atalanta', 'Atalanta Bergamo']),
  serieA('Bologna', 'BOL', ['Bologna FC', 'Bologna FC 1909']),
  serieA('Cagliari', 'CAG', ['Cagliari Calcio']),
  serieA('Como', 'COM', ['Como 1907']),
  serieA('Cremonese', 'CRE', ['US Cremonese']),
  serieA('Fiorentina', 'FIO', ['ACF Fiorentina']),
  serieA('Genoa', 'GEN', ['Genoa CFC']),
  serieA('Hellas Verona FC', 'VER', ['Hellas Verona', 'Verona']),
  serieA('Inter Milan', 'INT', ['Inter', 'Internazionale', 'FC Internazionale Milano', 'Inter Milano']),
  serieA('Juventus', 'JUV', ['Juventus FC', 'Juve']),
  serieA('Lazio', 'LAZ', ['SS Lazio']),
  serieA('Lecce', 'LEC', ['US Lecce']),
  serieA('Napoli', 'NAP', ['SSC Napoli']),
  serieA('Parma', 'PAR', ['Parma Calcio', 'Parma Calcio 1913']),
  serieA('Pisa', 'PIS', ['Pisa SC', 'AC Pisa 1909']),
  serieA('Sassuolo', 'SAS', ['US Sassuolo', 'US Sassuolo Calcio']),
  serieA('Torino', 'TOR', ['Torino FC']),
  serieA('Udinese', 'UDI', ['Udinese Calcio']),
];

/** Bundesliga 2025/26 (18 clubs). */
export const BUNDESLIGA: readonly TeamSeed[] = [
  bundesliga('Augsburg', 'FCA', ['FC Augsburg']),
  bundesliga('Bayer Leverkusen', 'B04', ['Leverkusen', 'Bayer 04 Leverkusen']),
  bundesliga('Bayern Munich', 'FCB', ['Bayern', 'FC Bayern München', 'Bayern München', 'FC Bayern Munich']),
  bundesliga('Borussia Dortmund', 'BVB', ['Dortmund']),
  bundesliga('Borussia Monchengladbach', 'BMG', ['Mönchengladbach', "M'gladbach", 'Gladbach', "Borussia M'gladbach"]),
  bundesliga('Eintracht Frankfurt', 'SGE', ['Frankfurt', 'Ein Frankfurt', 'Eintracht']),
  bundesliga('FC St. Pauli', 'STP', ['St. Pauli', 'FC St. Pauli 1910']),
  bundesliga('FSV Mainz 05', 'M05', ['Mainz', 'Mainz 05', '1. FSV Mainz 05']),
  bundesliga('1. FC Heidenheim', 'FCH', ['Heidenheim', 'FC Heidenheim', '1. FC Heidenheim 1846']),
  bundesliga('1. FC Köln', 'KOE', ['FC Köln', 'Köln', 'FC Cologne', 'Cologne']),
  bundesliga('Hamburger SV', 'HSV', ['Hamburg', 'Hamburg SV']),
  bundesliga('RB Leipzig', 'RBL', ['Leipzig', 'RasenBallsport Leipzig']),
  bundesliga('SC Freiburg', 'SCF', ['Freiburg']),
  bundesliga('TSG Hoffenheim', 'TSG', ['Hoffenheim', 'TSG 1899 Hoffenheim', '1899 Hoffenheim']),
  bundesliga('Union Berlin', 'FCU', ['1. FC Union Berlin', 'FC Union Berlin']),
  bundesliga('VfB Stuttgart', 'VFB', ['Stuttgart']),
  bundesliga('VfL Wolfsburg', 'WOB', ['Wolfsburg']),
  bundesliga('Werder Bremen', 'SVW', ['SV Werder Bremen', 'Bremen']),
];
