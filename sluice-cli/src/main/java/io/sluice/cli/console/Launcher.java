package io.sluice.cli.console;

/**
 * How the person ran Sluice, for the commands the output suggests: {@code ./sluice} from the project's folder, but
 * {@code /opt/sluice/sluice} when that is what they typed (the quick start said {@code ./sluice local start} to a
 * user in another folder, where no such file is). The {@code sluice} script passes what it was started as.
 *
 * <p>Stateless.
 */
public final class Launcher {

    /** Set by the {@code sluice} script to the path it was started by ({@code $0}). */
    static final String VARIABLE = "SLUICE_LAUNCHER";

    private Launcher() {
    }

    /** The command that runs Sluice again, as the person typed it. */
    public static String command() {
        String launcher = System.getenv(VARIABLE);
        return launcher == null || launcher.isBlank() ? "./sluice" : launcher;
    }
}
