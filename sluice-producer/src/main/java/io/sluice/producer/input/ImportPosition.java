package io.sluice.producer.input;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * How far an exactly-once import of files has come, as it is committed with the records (an offset and its metadata
 * text): the index of the file being read in the stable list of {@link Inputs}, the line and byte offset to go on
 * from in it, that file's {@link FileIdentity}, and a hash of the files before it (those done). The byte offset is the
 * committed offset itself; the rest is the metadata:
 * {@code sluice-produce3|<hash of the files done>|<file index>|<line>|<size>|<head hash>|<file hashes>|<path>}, where
 * the file hashes are a short hash of the path of each file sent (those done and the one being read; the last
 * {@link #FILE_HASHES} of them). Past the last file, the index is the number of files and there is no identity: the
 * import is complete.
 *
 * <p>Only the files done are pinned, not the whole list: a rerun of the same command after files were added to its
 * folder or glob goes on with them, as long as they come after the file being read (new logs of later days, say); one
 * added before it, or a file done that is gone or renamed, makes the files done differ, and the rerun is refused
 * (the first version hashed the whole list, so a file added anywhere made the rerun a new import, sending everything
 * committed again).
 *
 * @param file     the index of the file to go on with; the number of files when all are done
 * @param line     the line number to go on from
 * @param offset   the byte offset (in the decompressed file) of that line
 * @param identity the file's identity when its reading began; when all are done, the last file's (null when not
 *                 known: written by an earlier version, or read back from a complete position)
 */
public record ImportPosition(int file, long line, long offset, FileIdentity identity) {

    private static final String VERSION = "sluice-produce3";
    /**
     * Without the files' own hashes: another import that sent some of these files was found only when all it sent
     * came here in its order (import {@code a b}, then {@code b} alone, sent b again; a review).
     */
    private static final String FILES_DONE_VERSION = "sluice-produce2";
    /**
     * The most files named by their own hash, the last sent: 9 characters each, within the broker's 4,096 bytes of
     * offset metadata beside the path.
     */
    static final int FILE_HASHES = 256;
    /** The first version: the hash is of the whole list of inputs, which must be the same to resume. */
    private static final String WHOLE_LIST_VERSION = "sluice-produce1";
    /** Paths are only there for the messages: kept short, the metadata must fit offset.metadata.max.bytes. */
    private static final int MAX_PATH_CHARS = 1_000;

    /** The start of a file's reading. */
    public static ImportPosition startOf(int file, FileIdentity identity) {
        return new ImportPosition(file, 1, 0, identity);
    }

    /** After the last of {@code files} files. */
    public static ImportPosition complete(int files) {
        return complete(files, null);
    }

    /**
     * After the last of {@code files} files, whose identity was {@code last} when its reading began: a rerun that finds
     * files added after it checks that it has not changed since (lines added to it would be left out).
     */
    public static ImportPosition complete(int files, FileIdentity last) {
        return new ImportPosition(files, 1, 0, last);
    }

    public boolean isComplete(List<Input> inputs) {
        return file >= inputs.size();
    }

    /** The same file, going on after {@code origin}'s line. */
    public ImportPosition after(Origin origin) {
        return new ImportPosition(file, origin.line() + 1, origin.end(), identity);
    }

    /** The metadata text committed with this position's offset. */
    public String metadata(List<Input> inputs) {
        String path = isComplete(inputs) ? "" : inputs.get(file).name();
        if (path.length() > MAX_PATH_CHARS) {
            path = "..." + path.substring(path.length() - MAX_PATH_CHARS);
        }
        // the files done and the one being read: a rerun must find them first, by the same paths
        List<Input> sent = inputs.subList(0, Math.min(file + 1, inputs.size()));
        StringBuilder hashes = new StringBuilder();
        for (Input input : sent.subList(Math.max(0, sent.size() - FILE_HASHES), sent.size())) {
            hashes.append(hashes.length() == 0 ? "" : ",").append(pathHash(input));
        }
        return String.join("|", VERSION, listHash(sent), Integer.toString(file), Long.toString(line),
                identity == null ? "" : Long.toString(identity.size()), identity == null ? "" : identity.headHash(),
                hashes, path);
    }

    /**
     * The committed position, checked against the inputs of this run.
     *
     * @param name what the import is called, for the messages
     * @throws IllegalStateException when the files the committed import had done are not the first files of these
     *                               inputs, or the file being read then has changed since: resuming would skip or
     *                               repeat lines
     */
    public static ImportPosition resume(long offset, String metadata, List<Input> inputs, String name)
            throws java.io.IOException {
        String[] parts = fields(metadata);
        if (parts.length != 7 || !(parts[0].equals(VERSION) || parts[0].equals(FILES_DONE_VERSION)
                || parts[0].equals(WHOLE_LIST_VERSION))) {
            throw new IllegalStateException("import " + name + " has a committed position that sluice produce did not "
                    + "write ('" + metadata + "'): choose another --name");
        }
        int file = Integer.parseInt(parts[2]);
        long line = Long.parseLong(parts[3]);
        String reading = parts[6].isEmpty() ? "" : " (it was reading '" + parts[6] + "', file " + (file + 1) + ")";
        if (parts[0].equals(WHOLE_LIST_VERSION)) {
            if (!parts[1].equals(listHash(inputs))) {
                throw new IllegalStateException("import " + name + " was committed for other inputs than these "
                        + inputs.size() + " file(s)" + reading + ": rerun it with the same files in the same order, "
                        + "or give a new --name to import these from the start");
            }
        } else {
            boolean complete = parts[6].isEmpty();
            int pinned = complete ? file : file + 1; // the files done, and the one being read
            if (pinned > inputs.size() || !parts[1].equals(listHash(inputs.subList(0, pinned)))) {
                throw new IllegalStateException("import " + name + " had done " + file + " file(s)" + reading
                        + ", and the first " + pinned + " of these " + inputs.size() + " are not those: a file was "
                        + "added before the one being read, or one done was removed or renamed. Rerun it with those "
                        + "files as they were (files after the one being read may be added), or give a new --name to "
                        + "import these from the start");
            }
        }
        if (file >= inputs.size()) {
            // the last file's identity goes on with it: a rerun that finds nothing to send commits this position
            // again, and without it a later rerun with files added no longer saw that the last file had grown (its
            // new lines were left out without a word: a new user's run)
            return complete(inputs.size(), parts[4].isEmpty() ? null
                    : new FileIdentity(Long.parseLong(parts[4]), parts[5]));
        }
        if (parts[6].isEmpty()) {
            // it was complete, and files were added after its last: they are the import's next, once the last done
            // is found unchanged (its lines added since would otherwise be left out without a word)
            if (!parts[4].isEmpty() && file > 0) {
                FileIdentity then = new FileIdentity(Long.parseLong(parts[4]), parts[5]);
                FileIdentity last = FileIdentity.of(inputs.get(file - 1).path());
                if (!then.equals(last)) {
                    throw new IllegalStateException(inputs.get(file - 1).name() + " changed since import " + name
                            + " read it to its end (" + describe(then) + " then, " + describe(last) + " now), and "
                            + "files were added after it: going on with those would leave what it gained out. Restore "
                            + "it, or give a new --name to import these from the start");
                }
            }
            return startOf(file, FileIdentity.of(inputs.get(file).path()));
        }
        FileIdentity committed = new FileIdentity(Long.parseLong(parts[4]), parts[5]);
        FileIdentity now = FileIdentity.of(inputs.get(file).path());
        if (!committed.equals(now)) {
            throw new IllegalStateException(inputs.get(file).name() + " is not the file that import " + name
                    + " was reading (" + describe(committed) + " then, " + describe(now) + " now): resuming at line "
                    + line + " (byte " + offset + ") would skip or repeat lines. Restore the file, or give a new "
                    + "--name to import it from the start");
        }
        return new ImportPosition(file, line, offset, committed);
    }

    /**
     * The metadata's fields as version 2 had them (the file hashes of version 3 left out), so that one reading serves
     * both; a text of another kind as it splits.
     */
    private static String[] fields(String metadata) {
        if (metadata.startsWith(VERSION + "|")) {
            String[] v3 = metadata.split("\\|", 8);
            if (v3.length == 8) {
                return new String[] {v3[0], v3[1], v3[2], v3[3], v3[4], v3[5], v3[7]};
            }
        }
        return metadata.split("\\|", 7);
    }

    /**
     * The indexes among {@code inputs} of the files a committed import had sent (those done, and the one it was
     * reading), in order: before a new import begins, another that already sent some of these files is found this way
     * (the same files under other arguments: a folder and a pattern, a pattern the shell expanded with other files, a
     * part of its files named alone). Empty when none is there, or {@code metadata} is of a kind that does not say (the
     * first version pinned its whole list). A position of version 2 names only its files as a whole: found only when
     * all of them lie here in their order.
     */
    public static List<Integer> sentAmong(String metadata, List<Input> inputs) {
        if (metadata == null) {
            return List.of();
        }
        if (metadata.startsWith(VERSION + "|")) {
            String[] parts = metadata.split("\\|", 8);
            if (parts.length != 8 || parts[6].isEmpty()) {
                return List.of();
            }
            java.util.Set<String> sent = new java.util.HashSet<>(List.of(parts[6].split(",")));
            List<Integer> found = new java.util.ArrayList<>();
            for (int i = 0; i < inputs.size(); i++) {
                if (sent.contains(pathHash(inputs.get(i)))) {
                    found.add(i);
                }
            }
            return found;
        }
        String[] parts = metadata.split("\\|", 7);
        if (parts.length != 7 || !parts[0].equals(FILES_DONE_VERSION)) {
            return List.of();
        }
        int file;
        try {
            file = Integer.parseInt(parts[2]);
        } catch (NumberFormatException e) {
            return List.of();
        }
        int pinned = parts[6].isEmpty() ? file : file + 1;
        for (int from = 0; pinned > 0 && from + pinned <= inputs.size(); from++) {
            if (parts[1].equals(listHash(inputs.subList(from, from + pinned)))) {
                List<Integer> found = new java.util.ArrayList<>();
                for (int i = from; i < from + pinned; i++) {
                    found.add(i);
                }
                return found;
            }
        }
        return List.of();
    }

    /** A short hash of one input's absolute path: 8 hex digits. */
    private static String pathHash(Input input) {
        return listHash(List.of(input)).substring(0, 8);
    }

    private static String describe(FileIdentity identity) {
        return String.format(java.util.Locale.ROOT, "%,d bytes starting with hash %s", identity.size(),
                identity.headHash());
    }

    /**
     * A hash of the inputs' absolute paths in order: two runs over the same list have the same, from whatever folder
     * they were started. Until 2026-11-29 also what an import was named after by default (now its arguments are).
     */
    public static String listHash(List<Input> inputs) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Input input : inputs) {
                String path = input.isStdin() ? Input.STDIN : input.path().toAbsolutePath().normalize().toString();
                sha.update(path.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
            }
            return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
