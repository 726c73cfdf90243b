import type { RecommendationWindow } from '../../src/recommendations/recommendation.js'

/** The seven days before 2026-11-21 12:00 UTC. */
export const WEEK: RecommendationWindow = { days: 7, from: new Date('2026-11-14T12:00:00.000Z'), to: new Date('2026-11-21T12:00:00.000Z') }
