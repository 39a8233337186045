package dev.spanprofile.autoconfigure.brave;

import brave.Tracing;
import brave.propagation.CurrentTraceContext;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Says at startup when Brave's current trace context does not call spanprofile's scope
 * decorator: no thread then ever records which span it runs, and every span is stored
 * with an empty profile. Spring Boot adds every
 * {@link CurrentTraceContext.ScopeDecorator} bean only to the current trace context it
 * builds itself; an application that defines a {@link CurrentTraceContext} bean of its
 * own (to add an MDC decorator, or a strict or inheritable one) must add the decorator
 * itself, and a built context cannot be changed.
 */
final class ScopeDecoratorMissingWarning implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(ScopeDecoratorMissingWarning.class);

	private final ObjectProvider<Tracing> tracing;

	private final ObjectProvider<CurrentTraceContext.ScopeDecorator> decorators;

	ScopeDecoratorMissingWarning(ObjectProvider<Tracing> tracing,
			ObjectProvider<CurrentTraceContext.ScopeDecorator> decorators) {
		this.tracing = tracing;
		this.decorators = decorators;
	}

	@Override
	public void afterSingletonsInstantiated() {
		Tracing tracing = this.tracing.getIfUnique();
		BraveActivationDecorator decorator = this.decorators.stream()
			.filter(BraveActivationDecorator.class::isInstance)
			.map(BraveActivationDecorator.class::cast)
			.findFirst()
			.orElse(null);
		if (tracing == null || decorator == null) {
			return;
		}
		CurrentTraceContext current = tracing.currentTraceContext();
		if (!decorator.decorates(current)) {
			logger.warn(message(current));
		}
	}

	static String message(CurrentTraceContext current) {
		return "spanprofile: Brave's current trace context (" + current.getClass().getName()
				+ ") was built without the spanProfileScopeDecorator bean, so no span will have samples. "
				+ "Add it where you build your CurrentTraceContext bean (inject "
				+ "CurrentTraceContext.ScopeDecorator beans and pass each to the builder's addScopeDecorator), "
				+ "or remove that bean so that Spring Boot builds it with every ScopeDecorator bean.";
	}

}
