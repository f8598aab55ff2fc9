import { teamsOf } from './define.js';
import type { TeamSeed } from './define.js';

const team = teamsOf('basketball', 'nba');

/** NBA, 30 teams. */
export const NBA: readonly TeamSeed[] = [
  team('Atlanta Hawks', 'ATL', ['Atlanta', 'Hawks']),
  team('Boston Celtics', 'BOS', ['Boston', 'Celtics']),
  team('Brooklyn Nets', 'BKN', ['Brooklyn', 'Nets', 'BRK']),
  team('Charlotte Hornets', 'CHA', ['Charlotte', 'Hornets', 'CHO']),
  team('Chicago Bulls', 'CHI', ['Chicago', 'Bulls']),
  team('Cleveland Cavaliers', 'CLE', ['Cleveland', 'Cavaliers', 'Cavs']),
  team('Dallas Mavericks', 'DAL', ['Dallas', 'Mavericks', 'Mavs']),
  team('Denver Nuggets', 'DEN', ['Denver', 'Nuggets']),
  team('Detroit Pistons', 'DET', ['Detroit', 'Pistons']),
  team('Golden State Warriors', 'GSW', ['Golden State', 'GS Warriors', 'Warriors', 'GS']),
  team('Houston Rockets', 'HOU', ['Houston', 'Rockets']),
  team('Indiana Pacers', 'IND', ['Indiana', 'Pacers']),
  team('Los Angeles Clippers', 'LAC', ['LA Clippers', 'L.A. Clippers', 'Clippers']),
  team('Los Angeles Lakers', 'LAL', ['LA Lakers', 'L.A. Lakers', 'Lakers']),
  team('Memphis Grizzlies', 'MEM', ['Memphis', 'Grizzlies']),
  team('Miami Heat', 'MIA', ['Miami', 'Heat']),
  team('Milwaukee Bucks', 'MIL', ['Milwaukee', 'Bucks']),
  team('Minnesota Timberwolves', 'MIN', ['Minnesota', 'Timberwolves', 'Wolves', 'T-Wolves']),
  team('New Orleans Pelicans', 'NOP', ['New Orleans', 'Pelicans', 'NO Pelicans', 'NO']),
  team('New York Knicks', 'NYK', ['New York', 'NY Knicks', 'Knicks']),
  team('Oklahoma City Thunder', 'OKC', ['Oklahoma City', 'Thunder', 'OKC Thunder']),
  team('Orlando Magic', 'ORL', ['Orlando', 'Magic']),
  team('Philadelphia 76ers', 'PHI', ['Philadelphia', '76ers', 'Sixers', 'Philadelphia Sixers']),
  team('Phoenix Suns', 'PHX', ['Phoenix', 'Suns', 'PHO']),
  team('Portland Trail Blazers', 'POR', ['Portland', 'Trail Blazers', 'Blazers', 'Portland Trailblazers']),
  team('Sacramento Kings', 'SAC', ['Sacramento', 'Kings']),
  team('San Antonio Spurs', 'SAS', ['San Antonio', 'Spurs', 'SA']),
  team('Toronto Raptors', 'TOR', ['Toronto', 'Raptors']),
  team('Utah Jazz', 'UTA', ['Utah', 'Jazz']),
  team('Washington Wizards', 'WAS', ['Washington', 'Wizards', 'WSH']),
];
