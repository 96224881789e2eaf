// ModeEditor (see mode_editor.h): one field per catalogue parameter, by type: a spin box for
// whole numbers, a spin box in seconds, a selector for choices.
#include "ui/widgets/mode_editor.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSignalBlocker>
#include <QSpinBox>

#include <google/protobuf/util/message_differencer.h>

#include <cmath>

#include "engine/plan/mode_catalog.h"

namespace syncscope::ui {

using Spec = wire::ParameterSpec;

ModeEditor::ModeEditor(QWidget* parent, QStringList hiddenFields)
    : QWidget(parent), m_catalog(engine::modeCatalog()), m_hidden(std::move(hiddenFields)) {
    m_form = new QFormLayout(this);
    m_form->setContentsMargins(0, 0, 0, 0);
    m_mode = new QComboBox(this);
    m_form->addRow(tr("Mode"), m_mode);
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] {
        m_mode->setToolTip(m_mode->currentData(Qt::ToolTipRole).toString());
        updateVisibility();
        emit selectionChanged();
    });
    connect(m_mode, &QComboBox::activated, this, &ModeEditor::edited);
    rebuild();
}

QString ModeEditor::translated(const std::string& text) {
    return QCoreApplication::translate("syncscope::engine::ModeCatalog", text.c_str());
}

void ModeEditor::setCatalog(const wire::Catalog& catalog) {
    if (google::protobuf::util::MessageDifferencer::Equals(catalog, m_catalog)) return;
    const wire::ModeSettings kept = settings();
    m_catalog = catalog;
    rebuild();
    load(kept);
}

void ModeEditor::rebuild() {
    {
        const QSignalBlocker block(m_mode);
        m_mode->clear();
        for (const auto& mode : m_catalog.modes()) {
            m_mode->addItem(translated(mode.label()), int(mode.mode()));
            m_mode->setItemData(m_mode->count() - 1, translated(mode.help()), Qt::ToolTipRole);
        }
    }
    for (auto& [name, widget] : m_fields) m_form->removeRow(widget);  // deletes the row's widgets
    m_fields.clear();
    for (const auto& spec : m_catalog.parameters()) {
        if (m_hidden.contains(QString::fromStdString(spec.field()))) continue;
        QWidget* widget = createField(spec);
        widget->setObjectName(QString::fromStdString(spec.field()));
        widget->setToolTip(translated(spec.help()));
        m_fields[spec.field()] = widget;
        m_form->addRow(translated(spec.label()), widget);
    }
    m_mode->setToolTip(m_mode->currentData(Qt::ToolTipRole).toString());
    updateVisibility();
}

QWidget* ModeEditor::createField(const Spec& spec) {
    const auto changed = [this] {
        updateVisibility();
        emit edited();
    };
    switch (spec.type()) {
        case Spec::CHOICE: {
            auto* box = new QComboBox(this);
            for (const auto& choice : spec.choices())
                if (!choice.needs_assignment()) box->addItem(translated(choice.label()), choice.value());
            box->setCurrentIndex(std::max(0, box->findData(int(spec.default_value()))));
            connect(box, &QComboBox::activated, this, changed);
            return box;
        }
        case Spec::SECONDS: {
            auto* box = new QDoubleSpinBox(this);
            box->setDecimals(1);
            box->setRange(spec.minimum(), spec.maximum());
            box->setValue(spec.default_value());
            box->setSuffix(tr(" s"));
            connect(box, &QDoubleSpinBox::valueChanged, this, changed);
            return box;
        }
        default: {
            auto* box = new QSpinBox(this);
            box->setRange(int(spec.minimum()), int(std::min(spec.maximum(), 1e9)));
            box->setValue(int(spec.default_value()));
            connect(box, &QSpinBox::valueChanged, this, changed);
            return box;
        }
    }
}

QWidget* ModeEditor::field(const std::string& name) const {
    const auto it = m_fields.find(name);
    return it == m_fields.end() ? nullptr : it->second;
}

bool ModeEditor::isShown(const std::string& name) const {
    QWidget* widget = field(name);
    return widget && widget->isEnabled();
}

double ModeEditor::fieldValue(const Spec& spec) const {
    QWidget* widget = field(spec.field());
    if (auto* choice = qobject_cast<QComboBox*>(widget)) return choice->currentData().toInt();
    if (auto* seconds = qobject_cast<QDoubleSpinBox*>(widget)) return seconds->value();
    if (auto* count = qobject_cast<QSpinBox*>(widget)) return count->value();
    return engine::parameterValue(m_loaded, spec);  // hidden: what was loaded
}

void ModeEditor::setFieldValue(const Spec& spec, double value) {
    QWidget* widget = field(spec.field());
    const QSignalBlocker block(widget);
    if (auto* choice = qobject_cast<QComboBox*>(widget)) {
        if (const int i = choice->findData(int(value)); i >= 0) choice->setCurrentIndex(i);
    } else if (auto* seconds = qobject_cast<QDoubleSpinBox*>(widget)) {
        seconds->setValue(value);
    } else if (auto* count = qobject_cast<QSpinBox*>(widget)) {
        count->setValue(int(value));
    }
}

wire::ModeSettings ModeEditor::settings() const {
    wire::ModeSettings s;
    s.set_mode(static_cast<wire::SyncMode>(m_mode->currentData().toInt()));
    // Every field first, so the conditions of modeUses() (SSP inside, a slack barrier) can be read.
    wire::ModeSettings all = s;
    for (const auto& spec : m_catalog.parameters()) (void)engine::setParameter(all, spec, fieldValue(spec));
    for (const auto& spec : m_catalog.parameters())
        if (engine::modeUses(m_catalog, all, spec.field())) (void)engine::setParameter(s, spec, fieldValue(spec));
    return s;
}

void ModeEditor::load(const wire::ModeSettings& settings) {
    m_loaded = settings;
    {
        const QSignalBlocker block(m_mode);
        if (const int i = m_mode->findData(int(settings.mode())); i >= 0) m_mode->setCurrentIndex(i);
        m_mode->setToolTip(m_mode->currentData(Qt::ToolTipRole).toString());
    }
    for (const auto& spec : m_catalog.parameters())
        if (engine::modeUses(m_catalog, settings, spec.field())) setFieldValue(spec, engine::parameterValue(settings, spec));
    updateVisibility();
    emit selectionChanged();
}

void ModeEditor::updateVisibility() {
    const wire::ModeSettings s = settings();
    const wire::ModeSpec* mode = engine::findMode(m_catalog, s.mode());
    for (const auto& [name, widget] : m_fields) {
        const bool used = engine::modeUses(m_catalog, s, name);
        widget->setEnabled(used);
        m_form->setRowVisible(widget, used);
        if (auto* box = qobject_cast<QSpinBox*>(widget); box && mode) {
            QString zeroMeans;  // "N-1" for ksync's K, "N/2" for kasync's
            for (const auto& u : mode->parameters())
                if (u.field() == name && !u.zero_means().empty()) zeroMeans = translated(u.zero_means());
            box->setSpecialValueText(zeroMeans.isEmpty() ? QString() : tr("default: %1").arg(zeroMeans));
        }
    }
}

}  // namespace syncscope::ui
