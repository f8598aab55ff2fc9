import { teamsOf } from './define.js';
import type { TeamSeed } from './define.js';

const team = teamsOf('football', 'nfl');

/** NFL, 32 teams. Names as The Odds API writes them (checked against the week-10 2025 recording). */
export const NFL: readonly TeamSeed[] = [
  team('Arizona Cardinals', 'ARI', ['Arizona', 'Cardinals', 'AZ Cardinals']),
  team('Atlanta Falcons', 'ATL', ['Atlanta', 'Falcons']),
  team('Baltimore Ravens', 'BAL', ['Baltimore', 'Ravens']),
  team('Buffalo Bills', 'BUF', ['Buffalo', 'Bills']),
  team('Carolina Panthers', 'CAR', ['Carolina', 'Panthers']),
  team('Chicago Bears', 'CHI', ['Chicago', 'Bears']),
  team('Cincinnati Bengals', 'CIN', ['Cincinnati', 'Bengals']),
  team('Cleveland Browns', 'CLE', ['Cleveland', 'Browns']),
  team('Dallas Cowboys', 'DAL', ['Dallas', 'Cowboys']),
  team('Denver Broncos', 'DEN', ['Denver', 'Broncos']),
  team('Detroit Lions', 'DET', ['Detroit', 'Lions']),
  team('Green Bay Packers', 'GB', ['Green Bay', 'Packers', 'GNB']),
  team('Houston Texans', 'HOU', ['Houston', 'Texans']),
  team('Indianapolis Colts', 'IND', ['Indianapolis', 'Colts']),
  team('Jacksonville Jaguars', 'JAX', ['Jacksonville', 'Jaguars', 'JAC']),
  team('Kansas City Chiefs', 'KC', ['Kansas City', 'Chiefs', 'KAN']),
  team('Las Vegas Raiders', 'LV', ['Las Vegas', 'Raiders', 'LVR', 'Oakland Raiders']),
  team('Los Angeles Chargers', 'LAC', ['LA Chargers', 'L.A. Chargers', 'Chargers']),
  team('Los Angeles Rams', 'LAR', ['LA Rams', 'L.A. Rams', 'Rams']),
  team('Miami Dolphins', 'MIA', ['Miami', 'Dolphins']),
  team('Minnesota Vikings', 'MIN', ['Minnesota', 'Vikings']),
  team('New England Patriots', 'NE', ['New England', 'Patriots', 'NWE']),
  team('New Orleans Saints', 'NO', ['New Orleans', 'Saints', 'NOR']),
  team('New York Giants', 'NYG', ['NY Giants', 'Giants']),
  team('New York Jets', 'NYJ', ['NY Jets', 'Jets']),
  team('Philadelphia Eagles', 'PHI', ['Philadelphia', 'Eagles']),
  team('Pittsburgh Steelers', 'PIT', ['Pittsburgh', 'Steelers']),
  team('San Francisco 49ers', 'SF', ['San Francisco', '49ers', 'Niners', 'SFO']),
  team('Seattle Seahawks', 'SEA', ['Seattle', 'Seahawks']),
  team('Tampa Bay Buccaneers', 'TB', ['Tampa Bay', 'Buccaneers', 'Bucs', 'TAM']),
  team('Tennessee Titans', 'TEN', ['Tennessee', 'Titans']),
  team('Washington Commanders', 'WAS', ['Washington', 'Commanders', 'WSH']),
];
