package io.sluice.cli.run;

import java.util.List;

/**
 * The one place {@code sluice run}'s extensions are registered, next to the subcommand list in
 * {@link io.sluice.cli.SluiceCommand}.
 *
 * <p>Stateless; each call makes fresh instances (they hold option values).
 */
public final class RunExtensions {

    private RunExtensions() {
    }

    public static List<RunExtension> create() {
        return List.of();
    }
}
