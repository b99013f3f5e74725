package io.sluice.cli.config;

import java.util.List;

/**
 * A value of a pipeline file with its position: what the YAML parser found, after {@code ${VAR}} substitution.
 * Keeping positions on every value is what lets each error point into the user's file.
 *
 * <p>Immutable.
 */
public sealed interface Value permits Value.Scalar, Value.Sequence, Value.Mapping, Value.Broken {

    Position position();

    /** For messages: "a list", "a section"... */
    String kind();

    /**
     * A single value as text. {@code nul} is true for an empty or {@code ~} value ({@code key:} with nothing after
     * it); {@code variables} is the text as written when it held {@code ${...}}, or null.
     */
    record Scalar(String text, boolean nul, String variables, Position position) implements Value {

        /** A value the code supplies (a default), which has no place in a file. */
        public static Scalar builtIn(String text) {
            return new Scalar(text, false, null, Position.builtIn("default"));
        }

        @Override
        public String kind() {
            return nul ? "nothing" : "a single value";
        }

        /** How to quote the value in a message: {@code '12 furlongs'}, plus where it came from when substituted. */
        public String quoted() {
            return "'" + text + "'" + (variables == null ? "" : " (from " + variables + ")");
        }
    }

    record Sequence(List<Value> items, Position position) implements Value {

        public Sequence {
            items = List.copyOf(items);
        }

        @Override
        public String kind() {
            return "a list";
        }
    }

    /** A mapping, in file order; keys are unique (duplicates are reported while reading). */
    record Mapping(List<Entry> entries, Position position) implements Value {

        public Mapping {
            entries = List.copyOf(entries);
        }

        @Override
        public String kind() {
            return "a section of keys";
        }
    }

    /** A value whose problem is reported already (an unset variable): binding skips it quietly. */
    record Broken(Position position) implements Value {

        @Override
        public String kind() {
            return "nothing";
        }
    }

    /** One key of a mapping: its name, where the key is written, and its value. */
    record Entry(String key, Position keyPosition, Value value) {
    }
}
