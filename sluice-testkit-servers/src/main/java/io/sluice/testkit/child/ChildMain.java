package io.sluice.testkit.child;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Entry point of every server the test kit starts as a child JVM: {@code ChildMain <main-class> [args...]}.
 *
 * <p>The parent holds the write end of this process's standard input and never writes to it. When the parent
 * dies for any reason, including {@code kill -9}, the operating system closes that pipe, {@code read()} returns
 * end-of-file, and this process halts. That is what guarantees no server outlives the test run, without relying
 * on the parent's shutdown hooks (which do not run on {@code kill -9}).
 *
 * <p>Threading: the watchdog is a daemon thread that only reads standard input; the wrapped main runs on the
 * main thread.
 */
public final class ChildMain {

    /** Exit status when the parent vanished; 128 + SIGKILL, like a process killed from outside. */
    static final int PARENT_GONE_STATUS = 137;

    private ChildMain() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            System.err.println("usage: ChildMain <main-class> [args...]");
            System.exit(2);
        }
        Thread watchdog = new Thread(() -> haltWhenClosed(System.in), "parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();

        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static void haltWhenClosed(InputStream parentPipe) {
        try {
            while (parentPipe.read() != -1) {
                // the parent never writes; anything read is ignored
            }
        } catch (IOException e) {
            // a broken pipe means the same as end-of-file: the parent is gone
        }
        System.err.println("[sluice-testkit] parent process is gone; halting");
        Runtime.getRuntime().halt(PARENT_GONE_STATUS);
    }
}
