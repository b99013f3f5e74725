package io.sluice.cli.config;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * "Did you mean": the candidate closest to a misspelt name, by edit distance with transpositions (optimal string
 * alignment), if it is close enough to be the likely intent.
 *
 * <p>Stateless.
 */
public final class Suggestions {

    private Suggestions() {
    }

    public static Optional<String> closest(String input, Collection<String> candidates) {
        String typed = input.toLowerCase(Locale.ROOT);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            int d = distance(typed, candidate.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        int allowed = Math.max(1, Math.min(3, typed.length() / 3));
        return best != null && bestDistance <= allowed ? Optional.of(best) : Optional.empty();
    }

    /** "; did you mean 'format'?" or "" when nothing is close. */
    public static String didYouMean(String input, Collection<String> candidates) {
        return closest(input, candidates).map(c -> "; did you mean '" + c + "'?").orElse("");
    }

    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
