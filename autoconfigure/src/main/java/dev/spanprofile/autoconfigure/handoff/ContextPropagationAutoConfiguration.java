package dev.spanprofile.autoconfigure.handoff;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.autoconfigure.otelagent.OtelJavaAgent;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.support.ContextPropagatingTaskDecorator;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

/**
 * Context propagation for work handed to other threads. On Boot 4.1 and later the
 * defaults come from {@link ContextPropagationDefaults} (properties); on lines without
 * {@code spring.task.execution.propagate-context} (3.5, 4.0) this adds the task decorator
 * that the property would have added, unless the application has a task decorator of its
 * own. Either way it reports what it did at startup.
 */
@AutoConfiguration(before = { TaskExecutionAutoConfiguration.class, TaskSchedulingAutoConfiguration.class })
@ConditionalOnBooleanProperty(name = "spanprofile.enabled", matchIfMissing = true)
public final class ContextPropagationAutoConfiguration {

	static final String DECORATOR_BEAN = "spanProfileContextPropagatingTaskDecorator";

	private static final String[] REACTIVE_CONTEXTS = {
			"org.springframework.boot.web.context.reactive.ReactiveWebApplicationContext",
			"org.springframework.boot.web.reactive.context.ReactiveWebApplicationContext" };

	ContextPropagationAutoConfiguration() {
	}

	@Bean
	@Conditional(NotUnderOtelJavaAgent.class)
	static ContextPropagationReport spanProfileContextPropagationReport(ApplicationContext context,
			ConfigurableEnvironment environment, ObjectProvider<SpanProfiler> profiler) {
		return new ContextPropagationReport(environment, reactive(context), context.containsBean(DECORATOR_BEAN),
				profiler);
	}

	private static boolean reactive(ApplicationContext context) {
		for (String type : REACTIVE_CONTEXTS) {
			if (ClassUtils.isPresent(type, context.getClassLoader())
					&& ClassUtils.resolveClassName(type, context.getClassLoader()).isInstance(context)) {
				return true;
			}
		}
		return false;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = ContextPropagationSwitches.CONTEXT_SNAPSHOT)
	@ConditionalOnBooleanProperty(name = ContextPropagationSwitches.SPANPROFILE, matchIfMissing = true)
	@Conditional({ NotUnderOtelJavaAgent.class, BootWithoutTaskExecutionSwitch.class })
	static class TaskDecoratorConfiguration {

		@Bean(DECORATOR_BEAN)
		@ConditionalOnMissingBean(TaskDecorator.class)
		ContextPropagatingTaskDecorator spanProfileContextPropagatingTaskDecorator() {
			return new ContextPropagatingTaskDecorator();
		}

	}

	/** The agent carries the context across executors and Reactor itself. */
	static final class NotUnderOtelJavaAgent extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return OtelJavaAgent.detect().running()
					? ConditionOutcome.noMatch("the OpenTelemetry Java agent propagates the context itself")
					: ConditionOutcome.match("no OpenTelemetry Java agent");
		}

	}

	static final class BootWithoutTaskExecutionSwitch extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return ContextPropagationSwitches.bootHasTaskExecutionSwitch()
					? ConditionOutcome.noMatch(ContextPropagationSwitches.TASK_EXECUTION + " is Boot's")
					: ConditionOutcome.match("this Boot line has no " + ContextPropagationSwitches.TASK_EXECUTION);
		}

	}

}
