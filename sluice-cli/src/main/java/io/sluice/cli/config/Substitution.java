package io.sluice.cli.config;

/**
 * {@code ${NAME}} and {@code ${NAME:-default}} in a value, as a shell expands them: the default applies when the
 * variable is unset or empty. {@code $$} is a literal {@code $}. Substitution happens in parsed values, never in the
 * YAML text, so a variable cannot change the file's structure and every position stays in the user's file.
 *
 * <p>Stateless.
 */
final class Substitution {

    private Substitution() {
    }

    /** Thrown for a reference that cannot be expanded; the message names the variable, never a value. */
    static final class Unresolved extends Exception {
        private static final long serialVersionUID = 1L;

        Unresolved(String message) {
            super(message);
        }
    }

    static boolean hasReferences(String text) {
        return text.indexOf('$') >= 0;
    }

    static String expand(String text, Variables variables) throws Unresolved {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c != '$') {
                out.append(c);
                i++;
            } else if (text.startsWith("$$", i)) {
                out.append('$');
                i += 2;
            } else if (text.startsWith("${", i)) {
                int close = text.indexOf('}', i);
                if (close < 0) {
                    throw new Unresolved("'${' without a closing '}'; write $$ for a literal $");
                }
                out.append(resolve(text.substring(i + 2, close), variables));
                i = close + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static String resolve(String reference, Variables variables) throws Unresolved {
        int dash = reference.indexOf(":-");
        String name = dash < 0 ? reference : reference.substring(0, dash);
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new Unresolved("'${" + reference + "}' is not a variable reference; names are letters, digits and "
                    + "underscores, as in ${KAFKA_BROKERS} or ${KAFKA_BROKERS:-localhost:9092}");
        }
        String value = variables.lookup(name).orElse("");
        if (!value.isEmpty()) {
            return value;
        }
        if (dash >= 0) {
            return reference.substring(dash + 2);
        }
        throw new Unresolved("${" + name + "} is not set; set the environment variable or give a default: ${" + name
                + ":-value}");
    }
}
