import { teamsOf } from './define.js';
import type { TeamSeed } from './define.js';

const team = teamsOf('baseball', 'mlb');

/** MLB, 30 teams ("Athletics" since the 2025 move from Oakland). */
export const MLB: readonly TeamSeed[] = [
  team('Arizona Diamondbacks', 'ARI', ['Arizona', 'Diamondbacks', 'D-backs', 'Dbacks', 'AZ']),
  team('Atlanta Braves', 'ATL', ['Atlanta', 'Braves']),
  team('Baltimore Orioles', 'BAL', ['Baltimore', 'Orioles', "O's"]),
  team('Boston Red Sox', 'BOS', ['Boston', 'Red Sox']),
  team('Chicago Cubs', 'CHC', ['Cubs', 'CHI Cubs']),
  team('Chicago White Sox', 'CWS', ['White Sox', 'CHI White Sox', 'CHW']),
  team('Cincinnati Reds', 'CIN', ['Cincinnati', 'Reds']),
  team('Cleveland Guardians', 'CLE', ['Cleveland', 'Guardians']),
  team('Colorado Rockies', 'COL', ['Colorado', 'Rockies']),
  team('Detroit Tigers', 'DET', ['Detroit', 'Tigers']),
  team('Houston Astros', 'HOU', ['Houston', 'Astros']),
  team('Kansas City Royals', 'KC', ['Kansas City', 'Royals', 'KCR']),
  team('Los Angeles Angels', 'LAA', ['LA Angels', 'L.A. Angels', 'Angels', 'Anaheim Angels']),
  team('Los Angeles Dodgers', 'LAD', ['LA Dodgers', 'L.A. Dodgers', 'Dodgers']),
  team('Miami Marlins', 'MIA', ['Miami', 'Marlins']),
  team('Milwaukee Brewers', 'MIL', ['Milwaukee', 'Brewers']),
  team('Minnesota Twins', 'MIN', ['Minnesota', 'Twins']),
  team('New York Mets', 'NYM', ['NY Mets', 'Mets']),
  team('New York Yankees', 'NYY', ['NY Yankees', 'Yankees']),
  team('Athletics', 'ATH', ['Oakland Athletics', 'Sacramento Athletics', 'Las Vegas Athletics', "A's", 'OAK']),
  team('Philadelphia Phillies', 'PHI', ['Philadelphia', 'Phillies']),
  team('Pittsburgh Pirates', 'PIT', ['Pittsburgh', 'Pirates']),
  team('San Diego Padres', 'SD', ['San Diego', 'Padres', 'SDP']),
  team('San Francisco Giants', 'SF', ['San Francisco', 'Giants', 'SFG']),
  team('Seattle Mariners', 'SEA', ['Seattle', 'Mariners']),
  team('St. Louis Cardinals', 'STL', ['St Louis Cardinals', 'Saint Louis Cardinals', 'St. Louis', 'Cardinals']),
  team('Tampa Bay Rays', 'TB', ['Tampa Bay', 'Rays', 'TBR']),
  team('Texas Rangers', 'TEX', ['Texas', 'Rangers']),
  team('Toronto Blue Jays', 'TOR', ['Toronto', 'Blue Jays']),
  team('Washington Nationals', 'WSH', ['Washington', 'Nationals', 'Nats', 'WAS']),
];
