// EventLabels: what a person reads for an event, in their language: a short label per kind ("4
// workers joined", "training started", "mode ssp s=3") for markers, the log and the rollback list,
// and the hover text with the engine's detail. The engine's detail stays as it was written: it
// names figures and values; the label is what the console translates.
#pragma once

#include <QCoreApplication>
#include <QString>

#include "engine/proto/syncscope.pb.h"

namespace syncscope::ui {

class EventLabels {
    Q_DECLARE_TR_FUNCTIONS(syncscope::ui::EventLabels)

public:
    /// The short label of one event: "worker 3 joined", "training started", "mode ssp s=3"; auto's
    /// and the advisor's decisions show their verdict, drawn from the decision's fields.
    static QString label(const wire::Event& event);
    /// The label of `count` events of the kind of `first` close together: "4 workers joined",
    /// "slowdown ×3".
    static QString burst(const wire::Event& first, int count);
    /// The label and, where the label does not carry it already, the engine's detail (a decision's:
    /// its reason): a log line's or the rollback list's text.
    static QString withDetail(const wire::Event& event);
    /// The hover text: time, version, label, and the engine's whole detail on the next line.
    static QString toolTip(const wire::Event& event);
    /// "auto: ksync K=7", "advice 3: grouped G=2 by speed", "advice 3 dismissed".
    static QString decision(const wire::Event& event);
};

}  // namespace syncscope::ui
