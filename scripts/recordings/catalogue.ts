import { betfairCatalogue } from './betfair-catalogue.js';

/** One real recording the replay examples and the real-data tests use, and where it comes from. */
export type Recording = DownloadedRecording | AssembledRecording | DerivedRecording;

/** A recording that is one public file: its identity is the SHA-256 of that file. */
export interface DownloadedRecording {
  file: string;
  check: 'file_sha256';
  /** SHA-256 of the file as the tests expect it, hex. */
  sha256: string;
  /** Where `make data` downloads it from; null when no single public file holds it. */
  url: string | null;
  /** Its origin and licence, in words, for the files without a URL above all. */
  origin: string;
}

/**
 * A recording rebuilt from the successive versions of one file in a public git repository. Its
 * identity is its manifest (every snapshot's envelope and data hash), not the bytes of the gzip
 * file, which depend on the compressor.
 */
export interface AssembledRecording {
  file: string;
  check: 'manifest';
  /** The repository `make data` clones, as git accepts it (a URL or, in the tests, a folder). */
  repository: string;
  /** The file inside the repository whose versions are the snapshots. */
  path: string;
  origin: string;
}

/**
 * A file written from other recordings (listed before it) rather than recorded: its identity is
 * the SHA-256 of what `write` makes of them.
 */
export interface DerivedRecording {
  file: string;
  check: 'derived';
  sha256: string;
  /** The recordings it is written from, in the order `write` takes their contents. */
  sources: readonly string[];
  write: (sources: readonly string[]) => string;
  origin: string;
}

// The flumine files are pinned to commits so that their checksums cannot drift with the branch.
const FLUMINE = 'https://raw.githubusercontent.com/betcode-org/flumine';
const ODDS_FETCHER = 'https://github.com/kevbowl/odds-fetcher.git';

export const RECORDINGS: readonly Recording[] = [
  {
    file: 'theoddsapi_v4_nfl_2025wk10_snapshots.jsonl.gz',
    check: 'manifest',
    repository: ODDS_FETCHER,
    path: 'odds/nfl.json',
    origin: 'the git history of odds/nfl.json in github.com/kevbowl/odds-fetcher (MIT), one commit a snapshot',
  },
  {
    file: 'theoddsapi_v4_fifa_wc2026_snapshots.jsonl.gz',
    check: 'manifest',
    repository: ODDS_FETCHER,
    path: 'odds/worldcup.json',
    origin: 'the git history of odds/worldcup.json in github.com/kevbowl/odds-fetcher (MIT), one commit a snapshot',
  },
  {
    file: 'football-data_E0_2024-25.csv',
    check: 'file_sha256',
    sha256: 'd3100fadc0f24cd34fce24b658f13570a0b96448bec4727e5dcd538adfee1ff4',
    url: 'https://www.football-data.co.uk/mmz4281/2425/E0.csv',
    origin: 'football-data.co.uk, English Premier League 2024/25 (free data; their terms apply)',
  },
  {
    file: 'betfair_stream_1.200806927_cricket_match_odds.jsonl',
    check: 'file_sha256',
    sha256: 'be96a0d491b6c5f7cdf1383c6001272dcf2f90a3d97d3c97f0193fbd6dc23dd5',
    url: `${FLUMINE}/3196969ac8bcdceb2ed90c83635e7d85a7864fda/tests/resources/1.200806927`,
    origin: 'test resources of github.com/betcode-org/flumine (MIT)',
  },
  {
    file: 'betfair_stream_1.200806927_cricket_scores.jsonl',
    check: 'file_sha256',
    sha256: 'ddbe02b545c30f29defd5f7b5537f08406ca4392a01042e63f9b73e4f4aa188f',
    url: `${FLUMINE}/fdd21a0a1d5ffac6b0e08fcf75ce735ab7b3d298/tests/resources/sportsdata/1.200806927`,
    origin: 'test resources of github.com/betcode-org/flumine (MIT)',
  },
  {
    file: 'betfair_catalogue_1.200806927.json',
    check: 'derived',
    sha256: '7e1989c5320017a1f656dbf326d75e4ac641a3d28849a9f5600db0db85d53440',
    sources: ['betfair_stream_1.200806927_cricket_match_odds.jsonl', 'betfair_stream_1.200806927_cricket_scores.jsonl'],
    write: ([prices = '', scores = '']) => betfairCatalogue('1.200806927', prices, scores),
    origin: "written from the two Betfair recordings' own facts (market definition, runner ids, team names), not downloaded",
  },
];
