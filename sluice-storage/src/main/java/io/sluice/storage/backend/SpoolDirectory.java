package io.sluice.storage.backend;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Local disk where files bound for a remote store accumulate before they are uploaded, so that the heap holds only a
 * small buffer per open file (as Secor does).
 *
 * <p>Several backends, in this process or others, may share one spool directory. Each owns a private folder,
 * {@code <dir>/<id>/}, and holds a lock on {@code <dir>/<id>.lock} while it lives. The lock file is locked under a
 * temporary name and only then renamed into place, and the folder is made after that, so a folder without its lock
 * file is never live. When a backend starts, every sibling whose lock nobody holds is what a crashed or killed run
 * left behind, and is deleted, as is every folder without a lock file. A lock file still under its temporary name is
 * another backend starting (it may not hold the lock yet: taking it away failed that start, with two archivers on
 * one machine), so it is removed only once it is an hour old, when its start has long failed.
 *
 * <p>Threading: safe for concurrent use.
 */
final class SpoolDirectory implements Closeable {

    private static final String LOCK = ".lock";
    private static final String UNNAMED = ".new";
    /** How old a lock file under its temporary name must be before it counts as left behind. */
    private static final Duration STARTING = Duration.ofHours(1);

    private final Path own;
    private final Path lockFile;
    private final FileChannel lockChannel;
    private final FileLock lock;

    private SpoolDirectory(Path own, Path lockFile, FileChannel lockChannel, FileLock lock) {
        this.own = own;
        this.lockFile = lockFile;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /** Takes a private folder under {@code dir} and removes what earlier runs left there. */
    static SpoolDirectory open(Path dir) throws IOException {
        Path root = Files.createDirectories(dir.toAbsolutePath().normalize());
        String id = UUID.randomUUID().toString();
        Path lockFile = root.resolve(id + LOCK);
        Path unnamed = root.resolve(id + LOCK + UNNAMED);
        FileChannel channel = FileChannel.open(unnamed, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        FileLock lock = channel.lock();
        Files.move(unnamed, lockFile, StandardCopyOption.ATOMIC_MOVE); // the lock goes with the file
        Path own = Files.createDirectory(root.resolve(id));
        removeLeftovers(root, id);
        return new SpoolDirectory(own, lockFile, channel, lock);
    }

    /** A new spool file's path (not created yet). */
    Path newFile() {
        return own.resolve(UUID.randomUUID() + ".part");
    }

    /** Removes this backend's folder and lock. */
    @Override
    public void close() throws IOException {
        deleteTree(own);
        lock.release();
        lockChannel.close();
        Files.deleteIfExists(lockFile);
    }

    @Override
    public String toString() {
        return own.toString();
    }

    private static void removeLeftovers(Path root, String ownId) throws IOException {
        List<Path> entries;
        try (Stream<Path> list = Files.list(root)) {
            entries = list.toList();
        }
        for (Path entry : entries) {
            String name = entry.getFileName().toString();
            if (name.startsWith(ownId)) {
                continue;
            }
            if (name.endsWith(UNNAMED)) {
                removeIfStale(entry);
            } else if (Files.isDirectory(entry)) {
                if (!Files.exists(root.resolve(name + LOCK))) {
                    deleteTree(entry); // its owner died while removing it, lock first
                }
            } else {
                removeIfAbandoned(entry, root.resolve(name.substring(0, name.indexOf('.') < 0 ? name.length()
                        : name.indexOf('.'))));
            }
        }
    }

    private static void removeIfStale(Path unnamed) throws IOException {
        try {
            if (Files.getLastModifiedTime(unnamed).toInstant().isBefore(Instant.now().minus(STARTING))) {
                Files.deleteIfExists(unnamed); // its folder never existed: made after the rename
            }
        } catch (java.nio.file.NoSuchFileException e) {
            // its backend renamed it meanwhile
        }
    }

    private static void removeIfAbandoned(Path lockFile, Path folder) throws IOException {
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                return; // another backend of this process owns it
            }
            if (lock == null) {
                return; // another process owns it
            }
            try {
                deleteTree(folder);
                Files.deleteIfExists(lockFile);
            } finally {
                lock.release();
            }
        } catch (java.nio.file.NoSuchFileException e) {
            // its owner closed meanwhile
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
