package io.tickwheel.bench.timers;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * A child-first class loader for one library: {@code io.netty.*} comes from the given jar only,
 * classes of one adapter package are defined again from the parent's bytes (so they link against
 * that jar), and everything else comes from the parent.
 *
 * <p>Threading: thread-safe (parallel capable; each name is defined under its own lock).
 */
final class IsolatingClassLoader extends URLClassLoader {

    static {
        ClassLoader.registerAsParallelCapable();
    }

    private final String adapterPackage;

    IsolatingClassLoader(final URL jar, final ClassLoader parent, final String adapterPackage) {
        super("isolated-" + jar.getPath(), new URL[] {jar}, parent);
        this.adapterPackage = adapterPackage;
    }

    @Override
    protected Class<?> loadClass(final String name, final boolean resolve)
            throws ClassNotFoundException {
        boolean library = name.startsWith("io.netty.");
        boolean adapter = name.startsWith(adapterPackage);
        if (!library && !adapter) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> type = findLoadedClass(name);
            if (type == null) {
                type = library ? findClass(name) : defineFromParent(name);
            }
            if (resolve) {
                resolveClass(type);
            }
            return type;
        }
    }

    private Class<?> defineFromParent(final String name) throws ClassNotFoundException {
        String path = name.replace('.', '/') + ".class";
        try (InputStream in = getParent().getResourceAsStream(path)) {
            if (in == null) {
                throw new ClassNotFoundException(name);
            }
            byte[] bytes = in.readAllBytes();
            return defineClass(name, bytes, 0, bytes.length);
        } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
        }
    }
}
