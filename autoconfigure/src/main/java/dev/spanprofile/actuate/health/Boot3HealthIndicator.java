package dev.spanprofile.actuate.health;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;

import dev.spanprofile.SpanProfiler;

/**
 * The {@code spanprofile} health contributor on Spring Boot 3, where
 * {@code HealthIndicator} and {@code Health} live in
 * {@code org.springframework.boot.actuate.health}. This artifact is compiled against Boot
 * 4, which no longer has those types, so the indicator is a proxy of Boot 3's interface
 * that builds Boot 3's {@code Health} through its public builder:
 * {@code Health.up().withDetails(map).build()}.
 */
public final class Boot3HealthIndicator implements InvocationHandler {

	public static final String HEALTH_INDICATOR = "org.springframework.boot.actuate.health.HealthIndicator";

	static final String HEALTH = "org.springframework.boot.actuate.health.Health";

	private final ProfilerHealthDetails details;

	private final Method up;

	private final Method withDetails;

	private final Method build;

	private Boot3HealthIndicator(ProfilerHealthDetails details, ClassLoader classLoader)
			throws ReflectiveOperationException {
		this.details = details;
		Class<?> health = Class.forName(HEALTH, false, classLoader);
		this.up = health.getMethod("up");
		Class<?> builder = this.up.getReturnType();
		this.withDetails = builder.getMethod("withDetails", Map.class);
		this.build = builder.getMethod("build");
	}

	/**
	 * A Boot 3 {@code HealthIndicator} for {@code profiler}, from the classes
	 * {@code classLoader} sees.
	 */
	public static Object create(SpanProfiler profiler, ClassLoader classLoader) {
		try {
			Class<?> indicator = Class.forName(HEALTH_INDICATOR, false, classLoader);
			return Proxy.newProxyInstance(classLoader, new Class<?>[] { indicator },
					new Boot3HealthIndicator(new ProfilerHealthDetails(profiler), classLoader));
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Spring Boot 3's health API is not as expected", ex);
		}
	}

	@Override
	public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
		return switch (method.getName()) {
			case "health" ->
				(method.getParameterCount() == 0) ? health() : InvocationHandler.invokeDefault(proxy, method, args);
			case "toString" -> "spanprofile health indicator";
			case "hashCode" -> System.identityHashCode(proxy);
			case "equals" -> proxy == args[0];
			default -> InvocationHandler.invokeDefault(proxy, method, args);
		};
	}

	private Object health() throws ReflectiveOperationException {
		Object builder = this.up.invoke(null);
		this.withDetails.invoke(builder, this.details.get());
		return this.build.invoke(builder);
	}

}
