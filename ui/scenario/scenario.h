// A classroom scenario: the run to start (model, workers, sync mode, stragglers, stop conditions)
// and a timed schedule of changes with notes for the class. Plain data; scenario_parser.h reads it.
#pragma once

#include <QList>
#include <QString>

#include "engine/proto/syncscope.pb.h"

namespace syncscope::ui {

/// What a scheduled step does. `Note` only changes the note shown to the class.
enum class ScenarioAction { Note, SetMode, SetGroups, SetSlowdown, SetLearningRate, Pause, Resume, Stop };

struct ScenarioStep {
    double at = 0.0;  // seconds of training (see ScenarioRunner for what counts)
    ScenarioAction action = ScenarioAction::Note;
    QString note;     // empty: the previous note stays
    wire::ModeSettings mode;        // SetMode
    wire::SetGroups groups;         // SetGroups
    uint32_t workerId = 0;          // SetSlowdown
    wire::Slowdown slowdown;        // SetSlowdown
    float learningRate = 0.0f;      // SetLearningRate
    double pauseSeconds = 0.0;      // Pause: > 0 resumes by itself after this long
};

struct InitialSlowdown {
    uint32_t workerId = 0;
    wire::Slowdown slowdown;
};

struct Scenario {
    QString source;  // the file or resource it came from, for messages
    QString title, description;
    QString model = QStringLiteral("mlp"), backend = QStringLiteral("auto");
    int workers = 2;
    wire::ModeSettings mode;                 // the initial sync mode and its parameters
    QList<InitialSlowdown> slowdowns;
    float learningRate = 0.0f;               // 0: the engine's default
    double epochs = 0.0, maxSeconds = 0.0, targetAccuracy = 0.0;  // 0: no such limit
    QList<ScenarioStep> steps;               // sorted by `at`
};

}  // namespace syncscope::ui
