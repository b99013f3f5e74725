package io.sluice.reassign.journal;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.sluice.reassign.plan.PlanFile;
import io.sluice.reassign.plan.ReassignmentPlan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Every change a run makes to the cluster, one JSON line each, forced to disk before the change is made: after a
 * {@code kill -9} of the tool (or of its machine) the journal still names every throttle and temporary config that
 * may be set, so {@code resume} finishes the run and {@code cancel} restores them. A line cut by the crash is the
 * last and is ignored: its change was not made yet.
 *
 * <p>Each config change and restore is also handed to a {@link JournalMirror} (the cluster's journal topic), after
 * its line is on disk and before the change is made, so that {@code check} finds the run's temporary configs from
 * any machine, even when this file is gone. Opening a journal hands the mirror its configs not restored again: a
 * run killed between its line and the mirror's record is mirrored by whoever opens the file next.
 *
 * <p>Threading: one run at a time, on one thread.
 */
public final class Journal implements AutoCloseable {

    private final Path file;
    private final List<JournalEntry> entries;
    private final FileChannel channel;
    private final JournalMirror mirror;

    private Journal(Path file, List<JournalEntry> entries, FileChannel channel, JournalMirror mirror) {
        this.file = file;
        this.entries = entries;
        this.channel = channel;
        this.mirror = mirror;
    }

    /** Opens (or creates) the journal in {@code file} and reads what it holds; no mirror. */
    public static Journal open(Path file) {
        return open(file, JournalMirror.NONE);
    }

    /** Opens (or creates) the journal in {@code file}, reads what it holds and mirrors its pending configs again. */
    public static Journal open(Path file, JournalMirror mirror) {
        FileChannel channel;
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the journal " + file, e);
        }
        lock(file, channel);
        // read once held, through the same channel: what another run wrote until it let go counts (read before the
        // lock, a cancel could act on a run that finished meanwhile), and on Linux closing any other descriptor of
        // the file would drop this process's lock
        List<JournalEntry> entries;
        try {
            byte[] held = readAll(channel);
            entries = parse(new String(held, StandardCharsets.UTF_8).lines().toList());
            channel.position(channel.size());
            if (held.length > 0 && held[held.length - 1] != '\n') {
                // a line a crash cut short: the next entry starts on a line of its own, not glued to it (the reader
                // stops at the first line it cannot read, and would have lost every entry after)
                channel.write(ByteBuffer.wrap(new byte[] {'\n'}));
            }
        } catch (IOException e) {
            try {
                channel.close();
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw new UncheckedIOException("cannot read the journal " + file, e);
        }
        Journal journal = new Journal(file, new ArrayList<>(entries), channel, mirror);
        if (!journal.isOver()) {
            journal.pending().forEach(c -> mirror.changing(journal.run(), file, c));
        }
        return journal;
    }

    /**
     * Holds the journal for this run alone until it closes (the lock goes with the process, even at kill -9): a
     * {@code cancel} run beside a live {@code resume} undid its moves, and the resume then said "done: complete" of
     * moves that never happened (a new user's run).
     */
    private static void lock(Path file, FileChannel channel) {
        boolean held;
        try {
            held = channel.tryLock() != null;
        } catch (java.nio.channels.OverlappingFileLockException e) {
            held = false; // this process holds it already
        } catch (IOException e) {
            held = true; // a file system without locks: as before them
        }
        if (!held) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing was written through it
            }
            throw new JournalInUseException("the journal " + file + " is in use by another sluice reassign run "
                    + "(execute, resume, cancel or check --fix): let it end, or stop it (Ctrl-C), then run this again");
        }
    }

    /** The entries of a journal file, for a reader that changes nothing ({@code check}). */
    public static List<JournalEntry> read(Path file) {
        if (!Files.exists(file)) {
            return List.of();
        }
        try {
            return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the journal " + file, e);
        }
    }

    private static List<JournalEntry> parse(List<String> lines) {
        List<JournalEntry> entries = new ArrayList<>();
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            try {
                entries.add(PlanFile.json().readValue(line, JournalEntry.class));
            } catch (JsonProcessingException e) {
                // the line a crash cut short: its change was never made. The run that went on wrote its entries on
                // the lines after it (an open ends such a line first), so reading goes on
            }
        }
        return entries;
    }

    private static byte[] readAll(FileChannel channel) throws IOException {
        ByteBuffer all = ByteBuffer.allocate(Math.toIntExact(channel.size()));
        while (all.hasRemaining() && channel.read(all, all.position()) >= 0) {
            // positional reads: the channel's own position is set for appending afterwards
        }
        return all.array();
    }

    public Path file() {
        return file;
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /**
     * The run's id: written with the plan; for a journal of an older version without one, its file and first line's
     * time.
     */
    public String run() {
        return entries.stream().filter(e -> JournalEntry.PLAN.equals(e.event())).findFirst()
                .map(e -> e.run() != null ? e.run() : file.toAbsolutePath() + "@" + e.time())
                .orElse(file.toAbsolutePath().toString());
    }

    public Optional<ReassignmentPlan> plan() {
        return plan(entries);
    }

    /** The plan of a journal's entries: none when the file is no run's journal (a plan file, another file). */
    public static Optional<ReassignmentPlan> plan(List<JournalEntry> entries) {
        return entries.stream().filter(e -> JournalEntry.PLAN.equals(e.event())).map(JournalEntry::plan).findFirst();
    }

    /** Whether the run ended (finished or cancelled) and restored everything. */
    public boolean isOver() {
        return isOver(entries);
    }

    public static boolean isOver(List<JournalEntry> entries) {
        return entries.stream().anyMatch(e -> JournalEntry.FINISHED.equals(e.event())
                || JournalEntry.CANCELLED.equals(e.event()));
    }

    /** Configs changed and not restored yet, in the order they were changed. */
    public List<ConfigChange> pending() {
        return pending(entries);
    }

    public static List<ConfigChange> pending(List<JournalEntry> entries) {
        Map<String, ConfigChange> open = new LinkedHashMap<>();
        for (JournalEntry e : entries) {
            if (JournalEntry.CHANGED.equals(e.event())) {
                open.putIfAbsent(e.config().id(), e.config());
            } else if (JournalEntry.RESTORED.equals(e.event())) {
                open.remove(e.config().id());
            }
        }
        return List.copyOf(open.values());
    }

    /** Partitions ({@code topic-partition}) whose move this run requested. */
    public Set<String> started() {
        Set<String> started = new LinkedHashSet<>();
        entries.stream().filter(e -> JournalEntry.STARTED.equals(e.event())).forEach(e -> started.addAll(e.partitions()));
        return started;
    }

    /**
     * Journals the plan with every temporary config the run is about to set ({@code intended}, their values before
     * unknown yet): one line, so that a resume after a crash at any later step sets them all, not only those whose
     * own change was journaled (a run stopped while setting them resumed with part of a throttle, or none).
     */
    public void plan(ReassignmentPlan plan, List<ConfigChange> intended, RunLimits limits) {
        append(new JournalEntry(JournalEntry.PLAN, System.currentTimeMillis(), plan, null, null,
                UUID.randomUUID().toString(), List.copyOf(intended), limits));
    }

    /** The limits the run was started with; empty for a journal of an earlier version. */
    public static Optional<RunLimits> limits(List<JournalEntry> entries) {
        return entries.stream().filter(e -> JournalEntry.PLAN.equals(e.event())).findFirst()
                .map(JournalEntry::limits);
    }

    /** The temporary configs journaled with the plan; empty for a journal of an earlier version. */
    public Optional<List<ConfigChange>> intended() {
        return entries.stream().filter(e -> JournalEntry.PLAN.equals(e.event())).findFirst()
                .map(JournalEntry::intended);
    }

    /** Journals a config about to be changed: this file first, then the mirror; then the caller may change it. */
    public void changing(ConfigChange change) {
        append(new JournalEntry(JournalEntry.CHANGED, System.currentTimeMillis(), null, change, null, null, null,
                null));
        mirror.changing(run(), file, change);
    }

    /** Journals a config restored: this file first, then the mirror forgets it. */
    public void restored(ConfigChange change) {
        append(new JournalEntry(JournalEntry.RESTORED, System.currentTimeMillis(), null, change, null, null, null,
                null));
        mirror.restored(run(), change);
    }

    public void started(Collection<String> partitions) {
        append(new JournalEntry(JournalEntry.STARTED, System.currentTimeMillis(), null, null, List.copyOf(partitions),
                null, null, null));
    }

    public void finished() {
        append(JournalEntry.of(JournalEntry.FINISHED));
    }

    public void cancelled() {
        append(JournalEntry.of(JournalEntry.CANCELLED));
    }

    private void append(JournalEntry entry) {
        try {
            byte[] line = (PlanFile.jsonLine(entry) + "\n").getBytes(StandardCharsets.UTF_8);
            ByteBuffer buffer = ByteBuffer.wrap(line);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
            entries.add(entry);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the journal " + file, e);
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
