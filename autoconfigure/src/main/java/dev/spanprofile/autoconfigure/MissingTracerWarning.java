package dev.spanprofile.autoconfigure;

import dev.spanprofile.autoconfigure.otelagent.OtelJavaAgent;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.util.ClassUtils;

/**
 * Says at startup, naming the starter for the application's Spring Boot line, when no
 * OpenTelemetry tracer provider (nor Brave tracer) exists: the profiler then runs but no
 * span is ever profiled. Each line's starter brings that line's tracing, so this happens
 * when tracing is switched off, or the auto-configuration came without a starter (or with
 * the other line's). Under the OpenTelemetry Java agent, the tracer is the agent's: the
 * warning then names the agent extension when it is missing, whatever tracer the
 * application has, since the agent's spans are invisible without it.
 */
final class MissingTracerWarning implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(MissingTracerWarning.class);

	private static final String BOOT4_TRACING = "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure."
			+ "OpenTelemetryTracingAutoConfiguration";

	/**
	 * In Spring Boot 4's core only (3.x has it in spring-boot-autoconfigure, another
	 * package).
	 */
	private static final String BOOT4_MARKER = "org.springframework.boot.thread.Threading";

	private static final String BRAVE_TRACING = "brave.Tracing";

	private final ListableBeanFactory beanFactory;

	private final OtelJavaAgent agent;

	MissingTracerWarning(ListableBeanFactory beanFactory) {
		this(beanFactory, OtelJavaAgent.detect());
	}

	MissingTracerWarning(ListableBeanFactory beanFactory, OtelJavaAgent agent) {
		this.beanFactory = beanFactory;
		this.agent = agent;
	}

	@Override
	public void afterSingletonsInstantiated() {
		if (this.agent.running()) {
			if (this.agent.runsWithoutExtension()) {
				logger.warn(OtelJavaAgent.missingExtensionAdvice());
			}
			return;
		}
		if (this.beanFactory.getBeanNamesForType(SdkTracerProvider.class, true, false).length == 0
				&& !hasBraveTracing(getClass().getClassLoader())) {
			logger.warn(message(getClass().getClassLoader()));
		}
	}

	/**
	 * An application traced by Brave has its spans profiled through Brave's hooks
	 * instead.
	 */
	private boolean hasBraveTracing(ClassLoader classLoader) {
		return ClassUtils.isPresent(BRAVE_TRACING, classLoader) && this.beanFactory
			.getBeanNamesForType(ClassUtils.resolveClassName(BRAVE_TRACING, classLoader), true, false).length > 0;
	}

	static String message(ClassLoader classLoader) {
		String fix;
		if (ClassUtils.isPresent(BOOT4_MARKER, classLoader) && !ClassUtils.isPresent(BOOT4_TRACING, classLoader)) {
			fix = "On Spring Boot 4 use dev.spanprofile:spanprofile-spring-boot-starter, which brings "
					+ "org.springframework.boot:spring-boot-starter-opentelemetry.";
		}
		else if (ClassUtils.isPresent(BOOT4_MARKER, classLoader)) {
			fix = "Check that management.opentelemetry.enabled is not false.";
		}
		else {
			fix = "On Spring Boot 3.5 use dev.spanprofile:spanprofile-spring-boot3-starter, which brings "
					+ "spring-boot-starter-actuator and io.micrometer:micrometer-tracing-bridge-otel; "
					+ "and check that management.tracing.enabled is not false.";
		}
		return "spanprofile: there is no OpenTelemetry SdkTracerProvider bean, so no span will be profiled. " + fix;
	}

}
