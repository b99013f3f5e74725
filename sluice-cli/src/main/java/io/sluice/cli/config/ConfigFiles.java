package io.sluice.cli.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads a configuration file's text, with the problem said the way every other problem of the file is.
 *
 * <p>Stateless.
 */
public final class ConfigFiles {

    private ConfigFiles() {
    }

    /** The file's text (UTF-8). */
    public static String read(Path file) throws ConfigException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
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
            return Files.readAllLines(file, StandardCharsets.UTF_8).stream().anyMatch(l -> l.startsWith(name + ":"));
        } catch (IOException e) {
            return false;
        }
    }
}
