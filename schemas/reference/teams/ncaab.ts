import { teamsOf } from './define.js';
import type { TeamSeed } from './define.js';

const team = teamsOf('basketball', 'ncaab', 'ncaab-');

/**
 * NCAA men's basketball, Division I: the regular top-25 programmes. Same rules as NCAA football:
 * a school name belongs to that school only ("Washington" vs "Washington St."), and nicknames
 * shared in Division I (Wildcats, Bulldogs, Tigers, Cougars, Huskies, Spartans, Gaels,
 * Wolverines...) are never aliases.
 */
export const NCAAB: readonly TeamSeed[] = [
  team('Duke Blue Devils', 'DUKE', ['Duke']),
  team('North Carolina Tar Heels', 'UNC', ['North Carolina', 'Tar Heels']),
  team('Kansas Jayhawks', 'KU', ['Kansas', 'Jayhawks']),
  team('Kentucky Wildcats', 'UK', ['Kentucky']),
  team('Gonzaga Bulldogs', 'GONZ', ['Gonzaga', 'Zags']),
  team('UConn Huskies', 'CONN', ['UConn', 'Connecticut', 'Connecticut Huskies']),
  team('Houston Cougars', 'HOU', ['Houston']),
  team('Purdue Boilermakers', 'PUR', ['Purdue', 'Boilermakers']),
  team('Auburn Tigers', 'AUB', ['Auburn']),
  team('Alabama Crimson Tide', 'ALA', ['Alabama', 'Crimson Tide']),
  team('Tennessee Volunteers', 'TENN', ['Tennessee', 'Vols']),
  team('Florida Gators', 'FLA', ['Florida', 'Gators']),
  team('Arizona Wildcats', 'ARIZ', ['Arizona']),
  team('Michigan State Spartans', 'MSU', ['Michigan State', 'Michigan St']),
  team('Michigan Wolverines', 'MICH', ['Michigan']),
  team('Iowa State Cyclones', 'ISU', ['Iowa State', 'Iowa St', 'Cyclones']),
  team('Baylor Bears', 'BAY', ['Baylor']),
  team('Texas Tech Red Raiders', 'TTU', ['Texas Tech', 'Red Raiders']),
  team('Marquette Golden Eagles', 'MARQ', ['Marquette']),
  team('Creighton Bluejays', 'CREI', ['Creighton', 'Bluejays']),
  team('Villanova Wildcats', 'VILL', ['Villanova', 'Nova']),
  team("St. John's Red Storm", 'SJU', ["St. John's", 'St Johns', "Saint John's", "St. John's (NY)", 'Red Storm']),
  team("Saint Mary's Gaels", 'SMC', ["Saint Mary's", 'Saint Marys', "St. Mary's", 'St Marys', "Saint Mary's (CA)", "St. Mary's (CA)"]),
  team('BYU Cougars', 'BYU', ['Brigham Young']),
  team('UCLA Bruins', 'UCLA', []),
  team('Illinois Fighting Illini', 'ILL', ['Illinois', 'Fighting Illini']),
  team('Wisconsin Badgers', 'WIS', ['Wisconsin', 'Badgers']),
  team('Arkansas Razorbacks', 'ARK', ['Arkansas', 'Razorbacks']),
  team('Texas A&M Aggies', 'TA&M', ['Texas A&M', 'Texas AM', 'TAMU']),
  team('Indiana Hoosiers', 'IU', ['Indiana', 'Hoosiers']),
  team('Louisville Cardinals', 'LOU', ['Louisville']),
  team('Maryland Terrapins', 'MD', ['Maryland', 'Terrapins', 'Terps']),
  team('Ohio State Buckeyes', 'OSU', ['Ohio State', 'Ohio St', 'Buckeyes']),
  team('Oregon Ducks', 'ORE', ['Oregon', 'Ducks']),
  team('Oregon State Beavers', 'ORST', ['Oregon State', 'Oregon St']),
  team('Washington Huskies', 'WASH', ['Washington']),
  team('Washington State Cougars', 'WSU', ['Washington State', 'Washington St', 'Wash State', 'Wash St', 'Wazzu']),
  team('Miami Hurricanes', 'MIA', ['Miami', 'Miami (FL)', 'Miami FL', 'Miami Florida']),
  team('Memphis Tigers', 'MEM', ['Memphis']),
  team('San Diego State Aztecs', 'SDSU', ['San Diego State', 'San Diego St', 'Aztecs']),
  team('Xavier Musketeers', 'XAV', ['Xavier', 'Musketeers']),
  team('Florida State Seminoles', 'FSU', ['Florida State', 'Florida St', 'Seminoles']),
  team('Mississippi State Bulldogs', 'MSST', ['Mississippi State', 'Mississippi St', 'Miss State', 'Miss St']),
  team('Ole Miss Rebels', 'MISS', ['Ole Miss', 'Mississippi']),
];
