import { teamsOf } from './define.js';
import type { TeamSeed } from './define.js';

const team = teamsOf('curling', 'grand_slam_of_curling', 'curling-');

/** A curling team goes by its skip: "Team Homan", which books print as "Homan" or "Rachel Homan". */
function skip(given: string, family: string, aliases: readonly string[] = []): TeamSeed {
  const initial = `${given.charAt(0)}.`;
  return team(`Team ${family}`, null, [
    `${given} ${family}`,
    family,
    `${family} ${initial}`,
    `${initial} ${family}`,
    `Team ${given} ${family}`,
    ...aliases,
  ]);
}

/** Grand Slam of Curling: the men's and women's teams of the 2025/26 slams, by skip. */
export const CURLING: readonly TeamSeed[] = [
  skip('Brad', 'Gushue'),
  skip('Brad', 'Jacobs'),
  skip('Matt', 'Dunstone'),
  skip('Mike', 'McEwen'),
  skip('Kevin', 'Koe'),
  skip('John', 'Epping'),
  skip('Bruce', 'Mouat'),
  skip('Joel', 'Retornaz'),
  skip('Niklas', 'Edin'),
  skip('Yannick', 'Schwaller'),
  skip('Ross', 'Whyte'),
  skip('Korey', 'Dropkin'),
  skip('Rachel', 'Homan'),
  skip('Kerri', 'Einarson'),
  skip('Silvana', 'Tirinzoni'),
  skip('Anna', 'Hasselborg'),
  skip('Satsuki', 'Fujisawa'),
  skip('Eun-ji', 'Gim', ['Gim Eun-ji', 'Kim Eun-ji']),
  skip('Isabella', 'Wrana'),
  skip('Kaitlyn', 'Lawes'),
  skip('Tabitha', 'Peterson'),
  skip('Stefania', 'Constantini'),
];
