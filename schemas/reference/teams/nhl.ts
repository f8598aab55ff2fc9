import { teamsOf } from './define.js';
import type { TeamSeed } from './define.js';

const team = teamsOf('hockey', 'nhl');

/** NHL, 32 teams (2025/26: Utah Mammoth, formerly Utah Hockey Club). */
export const NHL: readonly TeamSeed[] = [
  team('Anaheim Ducks', 'ANA', ['Anaheim', 'Ducks']),
  team('Boston Bruins', 'BOS', ['Boston', 'Bruins']),
  team('Buffalo Sabres', 'BUF', ['Buffalo', 'Sabres']),
  team('Calgary Flames', 'CGY', ['Calgary', 'Flames']),
  team('Carolina Hurricanes', 'CAR', ['Carolina', 'Hurricanes', 'Canes']),
  team('Chicago Blackhawks', 'CHI', ['Chicago', 'Blackhawks']),
  team('Colorado Avalanche', 'COL', ['Colorado', 'Avalanche', 'Avs']),
  team('Columbus Blue Jackets', 'CBJ', ['Columbus', 'Blue Jackets']),
  team('Dallas Stars', 'DAL', ['Dallas', 'Stars']),
  team('Detroit Red Wings', 'DET', ['Detroit', 'Red Wings']),
  team('Edmonton Oilers', 'EDM', ['Edmonton', 'Oilers']),
  team('Florida Panthers', 'FLA', ['Florida', 'Panthers']),
  team('Los Angeles Kings', 'LAK', ['LA Kings', 'L.A. Kings', 'Kings']),
  team('Minnesota Wild', 'MIN', ['Minnesota', 'Wild']),
  team('Montréal Canadiens', 'MTL', ['Montreal', 'Canadiens', 'Habs']),
  team('Nashville Predators', 'NSH', ['Nashville', 'Predators', 'Preds']),
  team('New Jersey Devils', 'NJD', ['New Jersey', 'Devils', 'NJ Devils', 'NJ']),
  team('New York Islanders', 'NYI', ['NY Islanders', 'Islanders']),
  team('New York Rangers', 'NYR', ['NY Rangers', 'Rangers']),
  team('Ottawa Senators', 'OTT', ['Ottawa', 'Senators', 'Sens']),
  team('Philadelphia Flyers', 'PHI', ['Philadelphia', 'Flyers']),
  team('Pittsburgh Penguins', 'PIT', ['Pittsburgh', 'Penguins', 'Pens']),
  team('San Jose Sharks', 'SJS', ['San Jose', 'Sharks', 'SJ']),
  team('Seattle Kraken', 'SEA', ['Seattle', 'Kraken']),
  team('St Louis Blues', 'STL', ['St. Louis Blues', 'Saint Louis Blues', 'St. Louis', 'Blues']),
  team('Tampa Bay Lightning', 'TBL', ['Tampa Bay', 'Lightning', 'TB']),
  team('Toronto Maple Leafs', 'TOR', ['Toronto', 'Maple Leafs', 'Leafs']),
  team('Utah Mammoth', 'UTA', ['Utah', 'Mammoth', 'Utah Hockey Club', 'Utah HC']),
  team('Vancouver Canucks', 'VAN', ['Vancouver', 'Canucks']),
  team('Vegas Golden Knights', 'VGK', ['Vegas', 'Golden Knights', 'Las Vegas Golden Knights']),
  team('Washington Capitals', 'WSH', ['Washington', 'Capitals', 'Caps', 'WAS']),
  team('Winnipeg Jets', 'WPG', ['Winnipeg', 'Jets']),
];
