import { teamsOf } from './define.js';
import type { TeamSeed } from './define.js';

const team = teamsOf('football', 'ncaaf', 'ncaaf-');

/**
 * NCAA football, FBS: the power conferences, Notre Dame and the strongest Group of Five teams.
 * Books write schools without mascots ("Washington", "Washington St."), so the school is an
 * alias, and only of the school it names: "Washington" is the Huskies, never the Cougars;
 * "Miami" is the Hurricanes, Miami (OH) is always qualified. Nicknames that several FBS schools
 * share (Tigers, Bulldogs, Wildcats, Cougars, Huskies, Spartans, Aggies, Mountaineers...) are
 * never aliases; the abbreviations are ESPN's.
 */
export const NCAAF: readonly TeamSeed[] = [
  // SEC
  team('Alabama Crimson Tide', 'ALA', ['Alabama', 'Bama', 'Crimson Tide']),
  team('Arkansas Razorbacks', 'ARK', ['Arkansas', 'Razorbacks']),
  team('Auburn Tigers', 'AUB', ['Auburn']),
  team('Florida Gators', 'FLA', ['Florida', 'Gators', 'UF']),
  team('Georgia Bulldogs', 'UGA', ['Georgia']),
  team('Kentucky Wildcats', 'UK', ['Kentucky']),
  team('LSU Tigers', 'LSU', ['Louisiana State', 'Louisiana State Tigers']),
  team('Ole Miss Rebels', 'MISS', ['Ole Miss', 'Mississippi', 'Mississippi Rebels']),
  team('Mississippi State Bulldogs', 'MSST', ['Mississippi State', 'Mississippi St', 'Miss State', 'Miss St', 'Mississippi St Bulldogs']),
  team('Missouri Tigers', 'MIZ', ['Missouri', 'Mizzou']),
  team('Oklahoma Sooners', 'OU', ['Oklahoma', 'Sooners']),
  team('South Carolina Gamecocks', 'SC', ['South Carolina']),
  team('Tennessee Volunteers', 'TENN', ['Tennessee', 'Volunteers', 'Vols']),
  team('Texas Longhorns', 'TEX', ['Texas', 'Longhorns']),
  team('Texas A&M Aggies', 'TA&M', ['Texas A&M', 'Texas AM', 'TAMU']),
  team('Vanderbilt Commodores', 'VAN', ['Vanderbilt', 'Commodores', 'Vandy']),
  // Big Ten
  team('Illinois Fighting Illini', 'ILL', ['Illinois', 'Fighting Illini']),
  team('Indiana Hoosiers', 'IU', ['Indiana', 'Hoosiers']),
  team('Iowa Hawkeyes', 'IOWA', ['Iowa', 'Hawkeyes']),
  team('Maryland Terrapins', 'MD', ['Maryland', 'Terrapins', 'Terps']),
  team('Michigan Wolverines', 'MICH', ['Michigan', 'Wolverines']),
  team('Michigan State Spartans', 'MSU', ['Michigan State', 'Michigan St', 'Michigan St Spartans']),
  team('Minnesota Golden Gophers', 'MINN', ['Minnesota', 'Golden Gophers']),
  team('Nebraska Cornhuskers', 'NEB', ['Nebraska', 'Cornhuskers']),
  team('Northwestern Wildcats', 'NU', ['Northwestern']),
  team('Ohio State Buckeyes', 'OSU', ['Ohio State', 'Ohio St', 'Buckeyes']),
  team('Oregon Ducks', 'ORE', ['Oregon', 'Ducks']),
  team('Penn State Nittany Lions', 'PSU', ['Penn State', 'Penn St', 'Nittany Lions']),
  team('Purdue Boilermakers', 'PUR', ['Purdue', 'Boilermakers']),
  team('Rutgers Scarlet Knights', 'RUTG', ['Rutgers', 'Scarlet Knights']),
  team('UCLA Bruins', 'UCLA', ['Bruins']),
  team('USC Trojans', 'USC', ['Southern California', 'Southern Cal', 'Southern California Trojans']),
  team('Washington Huskies', 'WASH', ['Washington']),
  team('Wisconsin Badgers', 'WIS', ['Wisconsin', 'Badgers']),
  // ACC
  team('Boston College Eagles', 'BC', ['Boston College']),
  team('California Golden Bears', 'CAL', ['California', 'Cal Golden Bears', 'Golden Bears']),
  team('Clemson Tigers', 'CLEM', ['Clemson']),
  team('Duke Blue Devils', 'DUKE', ['Duke', 'Blue Devils']),
  team('Florida State Seminoles', 'FSU', ['Florida State', 'Florida St', 'Seminoles', 'Florida St Seminoles']),
  team('Georgia Tech Yellow Jackets', 'GT', ['Georgia Tech', 'Yellow Jackets']),
  team('Louisville Cardinals', 'LOU', ['Louisville']),
  team('Miami Hurricanes', 'MIA', ['Miami', 'Miami (FL)', 'Miami FL', 'Miami Florida', 'Miami (Fla.)', 'Hurricanes']),
  team('NC State Wolfpack', 'NCST', ['NC State', 'N.C. State', 'North Carolina State', 'North Carolina St', 'NCSU']),
  team('North Carolina Tar Heels', 'UNC', ['North Carolina', 'Tar Heels']),
  team('Pittsburgh Panthers', 'PITT', ['Pittsburgh', 'Pitt Panthers']),
  team('SMU Mustangs', 'SMU', ['Southern Methodist', 'Southern Methodist Mustangs']),
  team('Stanford Cardinal', 'STAN', ['Stanford']),
  team('Syracuse Orange', 'SYR', ['Syracuse', 'Cuse']),
  team('Virginia Cavaliers', 'UVA', ['Virginia']),
  team('Virginia Tech Hokies', 'VT', ['Virginia Tech', 'Hokies']),
  team('Wake Forest Demon Deacons', 'WAKE', ['Wake Forest', 'Demon Deacons']),
  // Big 12
  team('Arizona Wildcats', 'ARIZ', ['Arizona']),
  team('Arizona State Sun Devils', 'ASU', ['Arizona State', 'Arizona St', 'Sun Devils']),
  team('Baylor Bears', 'BAY', ['Baylor']),
  team('BYU Cougars', 'BYU', ['Brigham Young', 'Brigham Young Cougars']),
  team('Cincinnati Bearcats', 'CIN', ['Cincinnati', 'Bearcats']),
  team('Colorado Buffaloes', 'COLO', ['Colorado', 'Buffaloes', 'Buffs']),
  team('Houston Cougars', 'HOU', ['Houston']),
  team('Iowa State Cyclones', 'ISU', ['Iowa State', 'Iowa St', 'Cyclones']),
  team('Kansas Jayhawks', 'KU', ['Kansas', 'Jayhawks']),
  team('Kansas State Wildcats', 'KSU', ['Kansas State', 'Kansas St', 'K-State']),
  team('Oklahoma State Cowboys', 'OKST', ['Oklahoma State', 'Oklahoma St', 'Oklahoma St Cowboys']),
  team('TCU Horned Frogs', 'TCU', ['Texas Christian', 'Horned Frogs']),
  team('Texas Tech Red Raiders', 'TTU', ['Texas Tech', 'Red Raiders']),
  team('UCF Knights', 'UCF', ['Central Florida', 'Central Florida Knights']),
  team('Utah Utes', 'UTAH', ['Utah', 'Utes']),
  team('West Virginia Mountaineers', 'WVU', ['West Virginia']),
  // Pac-12 and independents
  team('Oregon State Beavers', 'ORST', ['Oregon State', 'Oregon St', 'Beavers', 'Oregon St Beavers']),
  team('Washington State Cougars', 'WSU', ['Washington State', 'Washington St', 'Wash State', 'Wash St', 'Wazzu', 'Washington St Cougars']),
  team('Notre Dame Fighting Irish', 'ND', ['Notre Dame', 'Fighting Irish']),
  team('UConn Huskies', 'CONN', ['UConn', 'Connecticut', 'Connecticut Huskies']),
  team('Army Black Knights', 'ARMY', ['Army', 'Army West Point', 'Black Knights']),
  team('Navy Midshipmen', 'NAVY', ['Navy', 'Midshipmen']),
  // Group of Five
  team('Boise State Broncos', 'BSU', ['Boise State', 'Boise St']),
  team('Memphis Tigers', 'MEM', ['Memphis']),
  team('Tulane Green Wave', 'TULN', ['Tulane', 'Green Wave']),
  team('San Diego State Aztecs', 'SDSU', ['San Diego State', 'San Diego St', 'Aztecs']),
  team('Fresno State Bulldogs', 'FRES', ['Fresno State', 'Fresno St']),
  team('San José State Spartans', 'SJSU', ['San Jose State', 'San Jose St']),
  team('UNLV Rebels', 'UNLV', ['Nevada-Las Vegas', 'Nevada Las Vegas']),
  team('James Madison Dukes', 'JMU', ['James Madison']),
  team('Liberty Flames', 'LIB', ['Liberty']),
  team('Miami (OH) RedHawks', 'M-OH', ['Miami (OH)', 'Miami OH', 'Miami (Ohio)', 'Miami Ohio', 'Miami RedHawks', 'Miami Ohio RedHawks']),
  team('Appalachian State Mountaineers', 'APP', ['Appalachian State', 'Appalachian St', 'App State', 'App St']),
];
