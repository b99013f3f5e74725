package io.sluice.reassign.plan;

import java.util.Set;
import java.util.TreeSet;

/**
 * What a plan must reach: new brokers carrying their share ({@code --add-brokers}), brokers emptied
 * ({@code --remove-brokers}), or bytes on disk evened out over every broker ({@code --balance}).
 *
 * <p>Immutable.
 */
public record Goal(Kind kind, Set<Integer> brokers) {

    public enum Kind { ADD_BROKERS, REMOVE_BROKERS, BALANCE }

    public Goal {
        brokers = Set.copyOf(brokers);
        if (kind != Kind.BALANCE && brokers.isEmpty()) {
            throw new IllegalArgumentException(kind + " names no broker");
        }
    }

    public static Goal add(Set<Integer> brokers) {
        return new Goal(Kind.ADD_BROKERS, brokers);
    }

    public static Goal remove(Set<Integer> brokers) {
        return new Goal(Kind.REMOVE_BROKERS, brokers);
    }

    public static Goal balance() {
        return new Goal(Kind.BALANCE, Set.of());
    }

    @Override
    public String toString() {
        return switch (kind) {
            case ADD_BROKERS -> "add brokers " + new TreeSet<>(brokers);
            case REMOVE_BROKERS -> "remove brokers " + new TreeSet<>(brokers);
            case BALANCE -> "balance bytes";
        };
    }
}
