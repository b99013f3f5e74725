package io.sluice.cli.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads a configuration file's text, with the problem said the way every other problem of the file is.
 *
 * <p>Threading: any thread. The text of a file that is not a regular one (a pipe: {@code /dev/stdin}, {@code <(...)})
 * is kept for the process once read: it can be read only once, and a command reads its file twice (its kind, then
 * its settings), so the second reading found it empty ("the file is empty" for {@code cat p.yaml | sluice validate
 * /dev/stdin}: a new user's run).
 */
public final class ConfigFiles {

    private static final Map<Path, String> PIPES = new ConcurrentHashMap<>();

    private ConfigFiles() {
    }

    /** The file's text (UTF-8). */
    public static String read(Path file) throws ConfigException {
        try {
            return text(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(Position.builtIn(file.toString()), "no such file");
        } catch (IOException e) {
            throw new ConfigException(Position.builtIn(file.toString()), "cannot read it: " + e.getMessage());
        }
    }

    /**
     * Whether {@code file} has the top-level section {@code name} (a line beginning {@code name:}): how the kinds of
     * files are told apart. False when it cannot be read; its loader reports that.
     */
    public static boolean hasTopLevelSection(Path file, String name) {
        try {
            return text(file).lines().anyMatch(l -> l.startsWith(name + ":"));
        } catch (IOException e) {
            return false;
        }
    }

    private static String text(Path file) throws IOException {
        if (Files.isRegularFile(file) || !Files.exists(file)) {
            return Files.readString(file, StandardCharsets.UTF_8);
        }
        Path key = file.toAbsolutePath().normalize();
        String kept = PIPES.get(key);
        if (kept == null) {
            kept = Files.readString(file, StandardCharsets.UTF_8);
            PIPES.putIfAbsent(key, kept);
        }
        return kept;
    }
}
