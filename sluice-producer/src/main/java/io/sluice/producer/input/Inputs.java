package io.sluice.producer.input;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The inputs a command line names, in a stable order: each argument in the order given, a folder as every regular
 * file below it (hidden ones left out) sorted by path, a glob ({@code logs/*.gz}, {@code data/**}{@code /*.jsonl}) as
 * its matches sorted by path. No argument, or {@code -}, is standard input. The same arguments over the same files
 * give the same list, which an exactly-once import's position relies on.
 *
 * <p>Stateless.
 */
public final class Inputs {

    private static final int MAX_GLOBSTARS = 4;

    private Inputs() {
    }

    /**
     * A hash of the arguments themselves, each as an absolute path (a glob's pattern made absolute): the same command
     * has the same from whatever folder it is run, and keeps it when its folders or globs come to hold more files.
     * What an exactly-once import is named after by default.
     */
    public static String argumentsHash(List<String> arguments) {
        List<String> hashes = prefixHashes(arguments);
        return hashes.get(hashes.size() - 1);
    }

    /**
     * {@link #argumentsHash} of every leading part of the arguments, the first argument alone first and all of them
     * last (one hash for none). A pattern the shell expanded reaches a command as its files, so a rerun after files
     * were added has more arguments than the first run: the earlier run's name is among these.
     */
    public static List<String> prefixHashes(List<String> arguments) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            List<String> hashes = new ArrayList<>(arguments.size());
            for (String argument : arguments) {
                String path = argument.equals("-") ? argument : Path.of(argument).toAbsolutePath().normalize()
                        .toString();
                sha.update(path.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
                hashes.add(hex(((MessageDigest) sha.clone()).digest()));
            }
            if (hashes.isEmpty()) {
                hashes.add(hex(sha.digest()));
            }
            return hashes;
        } catch (NoSuchAlgorithmException | CloneNotSupportedException e) {
            throw new IllegalStateException("every JVM has SHA-256, and it can be cloned", e);
        }
    }

    private static String hex(byte[] digest) {
        return HexFormat.of().formatHex(digest).substring(0, 16);
    }

    /** @throws IllegalArgumentException when an argument names nothing, in words */
    public static List<Input> expand(List<String> arguments) {
        if (arguments == null || arguments.isEmpty() || arguments.equals(List.of("-"))) {
            return List.of(Input.stdin());
        }
        List<Input> inputs = new ArrayList<>();
        // a file two arguments name (a folder and a pattern in it) was sent twice without a word (a review)
        java.util.Map<Path, String> namedBy = new java.util.HashMap<>();
        for (String argument : arguments) {
            if (argument.equals("-")) {
                throw new IllegalArgumentException("standard input (-) cannot be mixed with files");
            }
            for (Path path : files(argument)) {
                String before = namedBy.putIfAbsent(path.toAbsolutePath().normalize(), argument);
                if (before != null) {
                    throw new IllegalArgumentException(path + " is named twice, by " + (before.equals(argument)
                            ? "the argument " + argument + " given twice" : before + " and by " + argument)
                            + ": each line would be sent twice. Name each file once");
                }
                inputs.add(Input.file(path));
            }
        }
        return List.copyOf(inputs);
    }

    private static List<Path> files(String argument) {
        Path path = Path.of(argument);
        if (Files.isRegularFile(path)) {
            return List.of(path);
        }
        if (Files.isDirectory(path)) {
            List<Path> found = walk(path, p -> true);
            if (found.isEmpty()) {
                throw new IllegalArgumentException("folder " + argument + " holds no file");
            }
            return found;
        }
        if (!isGlob(argument)) {
            throw new IllegalArgumentException("no such file or folder: " + argument);
        }
        Path base = fixedPart(path);
        PathMatcher matcher = globMatcher(argument);
        List<Path> found = Files.isDirectory(base) ? walk(base, matcher) : List.of();
        if (found.isEmpty()) {
            throw new IllegalArgumentException("no file matches " + argument);
        }
        return found;
    }

    /**
     * The glob's matcher, with {@code **}{@code /} matching no folder too, as a shell's {@code globstar} does: Java's
     * glob needs at least one folder there, so {@code data/**}{@code /*.jsonl} left out the files directly in
     * {@code data/} without a word. Each {@code **}{@code /} may be there or not: a matcher per combination (at most
     * {@value #MAX_GLOBSTARS} of them in a pattern).
     */
    static PathMatcher globMatcher(String pattern) {
        List<String> variants = new ArrayList<>(List.of(pattern));
        int globstars = 0;
        for (int at = pattern.indexOf("**/"); at >= 0; at = pattern.indexOf("**/", at + 3)) {
            if (++globstars > MAX_GLOBSTARS) {
                throw new IllegalArgumentException("the pattern " + pattern + " has more than " + MAX_GLOBSTARS
                        + " '**/': give fewer");
            }
            List<String> more = new ArrayList<>();
            for (String v : variants) {
                // the same occurrence in each variant: count from the end, which removals before it do not move
                int fromEnd = pattern.length() - at;
                int i = v.length() - fromEnd;
                more.add(v.substring(0, i) + v.substring(i + 3));
            }
            variants.addAll(more);
        }
        List<PathMatcher> matchers = variants.stream()
                .map(v -> FileSystems.getDefault().getPathMatcher("glob:" + v)).toList();
        return p -> matchers.stream().anyMatch(m -> m.matches(p));
    }

    private static boolean isGlob(String argument) {
        return argument.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{');
    }

    /** The folders of {@code pattern} before its first part with a wildcard, where the search starts. */
    private static Path fixedPart(Path pattern) {
        Path base = pattern.isAbsolute() ? pattern.getRoot() : Path.of("");
        for (Path part : pattern) {
            if (isGlob(part.toString())) {
                break;
            }
            base = base.resolve(part);
        }
        return base.toString().isEmpty() ? Path.of(".") : base;
    }

    /** Whether any part of {@code relative} is hidden: a file in a hidden folder at any depth is left out too. */
    private static boolean hidden(Path relative) {
        for (Path part : relative) {
            if (part.toString().startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    private static List<Path> walk(Path root, PathMatcher matcher) {
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.filter(Files::isRegularFile)
                    .filter(p -> !hidden(root.relativize(p)))
                    .map(p -> root.equals(Path.of(".")) ? root.relativize(p) : p)
                    .filter(matcher::matches)
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + root + ": " + e.getMessage(), e);
        }
    }
}
