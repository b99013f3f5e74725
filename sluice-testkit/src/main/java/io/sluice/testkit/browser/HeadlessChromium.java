package io.sluice.testkit.browser;

import io.sluice.testkit.TestDirs;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real browser for tests of pages Sluice serves: Debian's {@code chromium}, headless. When it is missing the test
 * kit installs the package with apt-get (as {@code bench/run} does kcat), since every other server the tests need is
 * also brought by the project itself; where that is impossible it says what to install.
 *
 * <p>Each call starts its own browser process with a fresh profile. Thread-safe.
 */
public final class HeadlessChromium {

    private static final List<Path> CANDIDATES = List.of(Path.of("/usr/bin/chromium"),
            Path.of("/usr/bin/chromium-browser"), Path.of("/usr/lib/chromium/chromium"));
    private static Path executable;

    private HeadlessChromium() {
    }

    /**
     * The page at {@code url} as its DOM after {@code budget} of the page's own time (timers and polls run, the
     * network is waited for), serialized as HTML.
     */
    public static String dumpDom(URI url, Duration budget) throws IOException, InterruptedException {
        return run(List.of("--dump-dom", url.toString()), budget, 1280, 900);
    }

    /** A PNG of the page at {@code url} after {@code budget} of its own time, {@code width} x {@code height} pixels. */
    public static void screenshot(URI url, Path png, int width, int height, Duration budget)
            throws IOException, InterruptedException {
        run(List.of("--screenshot=" + png.toAbsolutePath(), url.toString()), budget, width, height);
        if (!Files.isRegularFile(png) || Files.size(png) == 0) {
            throw new IOException("chromium wrote no screenshot to " + png);
        }
    }

    private static String run(List<String> what, Duration budget, int width, int height)
            throws IOException, InterruptedException {
        Path profile = TestDirs.newDir("chromium-profile");
        List<String> command = new ArrayList<>(List.of(executable().toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--hide-scrollbars",
                "--user-data-dir=" + profile, "--window-size=" + width + "," + height,
                "--virtual-time-budget=" + budget.toMillis()));
        command.addAll(what);
        Path out = profile.resolve("stdout");
        Path err = profile.resolve("stderr");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(budget.toSeconds() + 60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("chromium did not finish within " + (budget.toSeconds() + 60) + " s: "
                    + Files.readString(err, StandardCharsets.UTF_8));
        }
        if (p.exitValue() != 0) {
            throw new IOException("chromium exited with " + p.exitValue() + ": "
                    + Files.readString(err, StandardCharsets.UTF_8));
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** The browser, installed first when it is missing. */
    public static synchronized Path executable() throws IOException, InterruptedException {
        if (executable == null) {
            executable = find();
            if (executable == null) {
                install();
                executable = find();
            }
            if (executable == null) {
                throw new IllegalStateException("no headless browser: the status page test needs Debian's chromium "
                        + "package (apt-get install -y chromium), and installing it failed (see the output above)");
            }
        }
        return executable;
    }

    private static Path find() {
        return CANDIDATES.stream().filter(Files::isExecutable).findFirst().orElse(null);
    }

    private static void install() throws IOException, InterruptedException {
        if (!Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
            return;
        }
        System.err.println("[test kit] installing Debian's chromium for the browser tests (apt-get install -y chromium)");
        if (apt("install", "-y", "-q", "chromium") != 0) {
            apt("update", "-q");
            apt("install", "-y", "-q", "chromium");
        }
    }

    private static int apt(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("apt-get"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO()
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
        Process p = builder.start();
        if (!p.waitFor(15, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }
}
