import type { SportsbookDef } from './types.js';

/**
 * The sportsbook catalog (`/sportsbooks?catalog=true` serves it as is). Sharp books take big
 * limits and move first; soft books carry more vig and follow them. The free tier's fixed
 * pair are the two books whose `requiresTier` is `free`.
 */
export const SPORTSBOOKS: readonly SportsbookDef[] = [
  { id: 'pinnacle', name: 'pinnacle', displayName: 'Pinnacle', isSharp: true, hasLiveOdds: true, hasPlayerProps: true, regions: ['EU', 'GLOBAL'], requiresTier: 'pro', unlisted: false },
  { id: 'circa', name: 'circa', displayName: 'Circa Sports', isSharp: true, hasLiveOdds: true, hasPlayerProps: false, regions: ['US'], requiresTier: 'pro', unlisted: false },
  { id: 'bookmaker', name: 'bookmaker', displayName: 'Bookmaker.eu', isSharp: true, hasLiveOdds: true, hasPlayerProps: false, regions: ['GLOBAL'], requiresTier: 'pro', unlisted: false },
  { id: 'betfair_ex_eu', name: 'betfair_ex_eu', displayName: 'Betfair Exchange', isSharp: true, hasLiveOdds: true, hasPlayerProps: false, regions: ['UK', 'EU'], requiresTier: 'pro', unlisted: true },
  { id: 'lowvig', name: 'lowvig', displayName: 'LowVig.ag', isSharp: true, hasLiveOdds: false, hasPlayerProps: false, regions: ['US'], requiresTier: 'pro', unlisted: false },
  { id: 'betonlineag', name: 'betonlineag', displayName: 'BetOnline.ag', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'hobby', unlisted: false },
  { id: 'draftkings', name: 'draftkings', displayName: 'DraftKings', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'free', unlisted: false },
  { id: 'fanduel', name: 'fanduel', displayName: 'FanDuel', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'free', unlisted: false },
  { id: 'betmgm', name: 'betmgm', displayName: 'BetMGM', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'hobby', unlisted: false },
  { id: 'caesars', name: 'caesars', displayName: 'Caesars Sportsbook', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'hobby', unlisted: false },
  { id: 'espnbet', name: 'espnbet', displayName: 'ESPN BET', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'hobby', unlisted: false },
  { id: 'betrivers', name: 'betrivers', displayName: 'BetRivers', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'pro', unlisted: false },
  { id: 'fanatics', name: 'fanatics', displayName: 'Fanatics Sportsbook', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'pro', unlisted: false },
  { id: 'hardrockbet', name: 'hardrockbet', displayName: 'Hard Rock Bet', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'pro', unlisted: false },
  { id: 'bovada', name: 'bovada', displayName: 'Bovada', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['US'], requiresTier: 'pro', unlisted: false },
  { id: 'mybookieag', name: 'mybookieag', displayName: 'MyBookie.ag', isSharp: false, hasLiveOdds: false, hasPlayerProps: false, regions: ['US'], requiresTier: 'pro', unlisted: false },
  { id: 'betus', name: 'betus', displayName: 'BetUS', isSharp: false, hasLiveOdds: false, hasPlayerProps: false, regions: ['US'], requiresTier: 'pro', unlisted: false },
  { id: 'bet365', name: 'bet365', displayName: 'bet365', isSharp: false, hasLiveOdds: true, hasPlayerProps: true, regions: ['UK', 'EU', 'AU'], requiresTier: 'hobby', unlisted: false },
  { id: 'williamhill', name: 'williamhill', displayName: 'William Hill', isSharp: false, hasLiveOdds: true, hasPlayerProps: false, regions: ['UK'], requiresTier: 'pro', unlisted: false },
  { id: 'unibet', name: 'unibet', displayName: 'Unibet', isSharp: false, hasLiveOdds: true, hasPlayerProps: false, regions: ['UK', 'EU'], requiresTier: 'pro', unlisted: false },
  { id: 'sportsbet', name: 'sportsbet', displayName: 'Sportsbet', isSharp: false, hasLiveOdds: true, hasPlayerProps: false, regions: ['AU'], requiresTier: 'pro', unlisted: false },
];
