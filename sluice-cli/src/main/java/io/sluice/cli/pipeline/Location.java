package io.sluice.cli.pipeline;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where an archive is: a scheme ({@code file}, {@code s3}, {@code hdfs}...), an authority (the bucket, the name node)
 * and a path under it. A folder of the local file system is {@code file} with an absolute path.
 *
 * <p>Immutable.
 */
public record Location(String scheme, String authority, String path) {

    /** A scheme of two letters or more, a colon and at most one slash: a URI whose author dropped a slash. */
    private static final Pattern SCHEME_WITHOUT_TWO_SLASHES = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]+):/?([^/].*)?");

    /**
     * Reads what a user wrote: a URI with a scheme, or a local folder (relative to {@code base}).
     *
     * @throws IllegalArgumentException when it is neither
     */
    public static Location parse(String text, Path base) {
        String t = text.trim();
        int colon = t.indexOf("://");
        Matcher slashMissing = SCHEME_WITHOUT_TWO_SLASHES.matcher(t);
        if (colon < 0 && slashMissing.matches() && !slashMissing.group(1).equalsIgnoreCase("file")) {
            // 's3:/bucket/x' would otherwise be a local folder named 's3:', and the archive would go unnoticed there
            String scheme = slashMissing.group(1);
            throw new IllegalArgumentException("'" + t + "' lacks a slash after '" + scheme + ":'; write " + scheme
                    + "://" + Objects.requireNonNullElse(slashMissing.group(2), "") + " (or ./" + t + " for a local folder of that name)");
        }
        if (colon < 0 && !t.startsWith("file:")) {
            return new Location("file", "", base.resolve(t).toAbsolutePath().normalize().toString());
        }
        URI uri;
        try {
            uri = new URI(t);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + t + "' is not a location: " + e.getReason());
        }
        String scheme = uri.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (scheme.equals("file")) {
            return new Location("file", "", Path.of(uri).toAbsolutePath().normalize().toString());
        }
        String path = uri.getPath() == null ? "" : uri.getPath();
        return new Location(scheme, uri.getAuthority() == null ? "" : uri.getAuthority(),
                path.startsWith("/") ? path.substring(1) : path);
    }

    /** The path as a key prefix: "" for the root, otherwise ending with '/'. */
    public String prefix() {
        return path.isEmpty() || path.endsWith("/") ? path : path + "/";
    }

    @Override
    public String toString() {
        return scheme.equals("file") ? path : scheme + "://" + authority + "/" + path;
    }
}
