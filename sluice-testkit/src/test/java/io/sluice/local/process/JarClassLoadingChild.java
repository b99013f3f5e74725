package io.sluice.local.process;

/** Loads the classes its arguments name (the Kafka clients') and exits: the child of {@link ClassDataArchivesTest}. */
public final class JarClassLoadingChild {

    private JarClassLoadingChild() {
    }

    public static void main(String[] args) throws Exception {
        for (String name : args) {
            Class.forName(name);
        }
        System.out.println("LOADED");
    }
}
