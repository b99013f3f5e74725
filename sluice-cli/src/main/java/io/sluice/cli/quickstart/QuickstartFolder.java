package io.sluice.cli.quickstart;

import io.sluice.cli.console.Launcher;
import io.sluice.cli.RunFailure;
import io.sluice.local.LocalDirs;
import io.sluice.local.kafka.KafkaCluster;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The quick start's folder: the broker's data ({@code kafka/}), the pipeline file and the archive ({@code archive/}).
 * A marker file tells an earlier quick start's folder, which is replaced, from a folder of the user's, which is never
 * touched.
 *
 * <p>Stateless.
 */
public final class QuickstartFolder {

    private static final String MARKER = ".sluice-quickstart";
    private static final String BROKER_NAME = "quickstart-kafka";
    /** What a quick start writes; only these are removed when a folder is reused. */
    private static final List<String> CONTENTS = List.of("kafka", "archive", "pipeline.yaml", "clickstream.avsc");

    private QuickstartFolder() {
    }

    /** Makes {@code folder} ready, or says why it cannot be used. */
    public static Optional<String> prepare(Path folder) throws IOException {
        if (Files.isDirectory(folder) && !Files.exists(folder.resolve(MARKER))) {
            try (Stream<Path> entries = Files.list(folder)) {
                if (entries.findAny().isPresent()) {
                    return Optional.of(folder + " is not empty and not a quick start's folder; choose another with "
                            + "--dir");
                }
            }
        }
        if (Files.exists(folder) && !Files.isDirectory(folder)) {
            return Optional.of(folder + " is a file; choose a folder with --dir");
        }
        if (brokerRunning(folder)) {
            // replacing kafka/ under a running broker deletes every topic it holds, and then the broker dies
            return Optional.of("a Kafka broker is running on " + kafka(folder) + " (a `" + Launcher.command() + " local start --dir "
                    + folder + "`?), and a quick start would replace its data: stop it first (Ctrl-C where it runs), "
                    + "or choose another folder with --dir");
        }
        Files.createDirectories(folder);
        for (String entry : CONTENTS) {
            Path path = folder.resolve(entry);
            if (Files.isDirectory(path)) {
                LocalDirs.deleteTree(path);
            } else {
                Files.deleteIfExists(path);
            }
        }
        Files.writeString(folder.resolve(MARKER), "written by sluice quickstart; the folder is replaced on the next "
                + "run\n");
        return Optional.empty();
    }

    public static Path kafka(Path folder) {
        return folder.resolve("kafka");
    }

    public static Path archive(Path folder) {
        return folder.resolve("archive");
    }

    /** Whether {@code folder} is a quick start's (it has the marker), whatever it holds. */
    public static boolean isQuickstart(Path folder) {
        return Files.exists(folder.resolve(MARKER));
    }

    /**
     * Whether a broker runs on the folder's data now: Kafka holds a lock on the {@code .lock} file of each of its log
     * folders while it runs (and deletes the file when it stops), so a lock this process cannot take is a broker's.
     */
    public static boolean brokerRunning(Path folder) throws IOException {
        Path kafka = kafka(folder);
        if (!Files.isDirectory(kafka)) {
            return false;
        }
        List<Path> locks;
        try (Stream<Path> files = Files.find(kafka, 4, (path, attributes) -> attributes.isRegularFile()
                && path.getFileName().toString().equals(".lock"))) {
            locks = files.toList();
        }
        for (Path lock : locks) {
            try (FileChannel channel = FileChannel.open(lock, StandardOpenOption.WRITE)) {
                FileLock taken = channel.tryLock();
                if (taken == null) {
                    return true;
                }
                taken.release();
            } catch (OverlappingFileLockException e) {
                return true; // this JVM holds it
            } catch (java.nio.file.AccessDeniedException e) {
                return true; // another user's broker, or one this user may not touch: not to be replaced either
            } catch (java.nio.file.NoSuchFileException e) {
                // the broker stopped meanwhile and removed it
            }
        }
        return false;
    }

    /** Starts a one-node broker with its data, logs and scratch files under {@code kafka/}. */
    public static KafkaCluster startBroker(Path folder) throws RunFailure {
        return broker(folder, kafka -> KafkaCluster.builder().name(BROKER_NAME).dir(kafka).start());
    }

    /**
     * Starts the broker an earlier quick start left under {@code kafka/} again, on its data and port, so that the
     * pipeline file it wrote works again.
     */
    public static KafkaCluster reopenBroker(Path folder) throws RunFailure {
        return broker(folder, kafka -> KafkaCluster.reopen(kafka, BROKER_NAME, KafkaCluster.TEST_JVM_OPTIONS));
    }

    private static KafkaCluster broker(Path folder, java.util.function.Function<Path, KafkaCluster> start)
            throws RunFailure {
        Path kafka = kafka(folder);
        if (System.getProperty(LocalDirs.ROOT_PROPERTY) == null) {
            // the local servers' scratch files (the formatted KRaft template) go there too, not to the temp folder
            System.setProperty(LocalDirs.ROOT_PROPERTY, kafka.toString());
        }
        try {
            return start.apply(kafka);
        } catch (IllegalStateException e) {
            throw new RunFailure("cannot start the local Kafka broker: " + e.getMessage(), e);
        } catch (NoClassDefFoundError e) {
            throw new RunFailure("cannot start the local Kafka broker: " + e.getMessage() + " (the quick start runs "
                    + "the broker from the jars Maven downloaded when it built sluice: run it through ./sluice in "
                    + "the repository)", e);
        }
    }
}
