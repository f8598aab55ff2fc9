import type { SportsbookDef } from './types.js';

/**
 * The sportsbook catalog (`/sportsbooks?catalog=true` serves it as is). Sharp books take big
 * limits and move first; soft books carry more vig and follow them. The free tier's fixed
 * pair are the two books whose `requiresTier` is `free`.
 */
export const SPORTSBOOKS: readonly SportsbookDef[] = [
  { id: 'pinnacle', numericalId: 1, name: 'pinnacle', displayName: 'Pinnacle', isSharp: true, hasLiveOdds: true, hasPlayerProps: true, regions: ['EU', 'GLOBAL'], requiresTier: 'pro', unlisted: false },
  { id: 'circa', numericalId: 2, name: 'circa', displayName: 'Circa Sports', isSharp: true, hasLiveOdds: true, hasPlayerProps: false, regions: ['US'], requiresTier: 'pro', unlisted: false },
  { id: 'bookmaker', numericalId: 3, name: 'bookmaker', displayName: 'Bookmaker.eu', isSharp: true, hasLiveOdds: true, hasPlayerProps: false, regions: ['GLOBAL'], requiresTier: 'pro', unlisted: false },
  { id: 'betfair_ex_eu', numericalId: 4, name: 'betfair_ex_eu', displayName: 'Betfair Exchange', isSharp: true, hasLiveOdds: true, hasPlayerProps: false, regions: ['UK', 'EU'], requiresTier: 'pro', unlisted: true },
  { id: 'lowvig', numericalId: 5, name: 'lowvig', displayName: 'LowVig.ag', isSharp: true, hasLiveOdds: false, hasPlayerProps: false, regions: ['US'], requiresTier: 'pro', unlisted: false },
  { id: 'betonlineag', numericalId: 6, name: 'betonlineag', displayName: 'BetOnline.ag', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'hobby', unlisted: false },
  { id: 'draftkings', numericalId: 7, name: 'draftkings', displayName: 'DraftKings', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'free', unlisted: false },
  { id: 'fanduel', numericalId: 8, name: 'fanduel', displayName: 'FanDuel', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'free', unlisted: false },
  { id: 'betmgm', numericalId: 9, name: 'betmgm', displayName: 'BetMGM', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'hobby', unlisted: false },
  { id: 'caesars', numericalId: 10, name: 'caesars', displayName: 'Caesars Sportsbook', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'hobby', unlisted: false },
  { id: 'espnbet', numericalId: 11, name: 'espnbet', displayName: 'ESPN BET', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'hobby', unlisted: false },
  { id: 'betrivers', numericalId: 12, name: 'betrivers', displayName: 'BetRivers', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'pro', unlisted: false },
  { id: 'fanatics', numericalId: 13, name: 'fanatics', displayName: 'Fanatics Sportsbook', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'pro', unlisted: false },
  { id: 'hardrockbet', numericalId: 14, name: 'hardrockbet', displayName: 'Hard Rock Bet', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'pro', unlisted: false },
  { id: 'bovada', numericalId: 15, name: 'bovada', displayName: 'Bovada', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'pro', unlisted: false },
  { id: 'mybookieag', numericalId: 16, name: 'mybookieag', displayName: 'MyBookie.ag', isSharp: false, hasLiveOdds: false, hasPlayerProps: false, regions: ['US'], requiresTier: 'pro', unlisted: false },
  { id: 'betus', numericalId: 17, name: 'betus', displayName: 'BetUS', isSharp: false, hasLiveOdds: false, hasPlayerProps: false, regions: ['US'], requiresTier: 'pro', unlisted: false },
  { id: 'bet365', numericalId: 18, name: 'bet365', displayName: 'bet365', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['UK', 'EU', 'AU'], requiresTier: 'hobby', unlisted: false },
  { id: 'williamhill', numericalId: 19, name: 'williamhill', displayName: 'William Hill', isSharp: false, hasLiveOdds: true, hasPlayerProps: false, regions: ['UK'], requiresTier: 'pro', unlisted: false },
  { id: 'unibet', numericalId: 20, name: 'unibet', displayName: 'Unibet', isSharp: false, hasLiveOdds: true, hasPlayerProps: false, regions: ['UK', 'EU'], requiresTier: 'pro', unlisted: false },
  { id: 'sportsbet', numericalId: 21, name: 'sportsbet', displayName: 'Sportsbet', isSharp: false, hasLiveOdds: true, hasPlayerProps: false, regions: ['AU'], requiresTier: 'pro', unlisted: false },
];
