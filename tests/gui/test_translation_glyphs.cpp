// Every string of the console's catalogues can be drawn (issue 25): each German and Chinese
// translation is finished, keeps its source's placeholders, holds no '?' or U+FFFD its English
// source lacks (text passed through Latin-1 shows as "?"), and every character is in the shipped
// fonts (Debian's fonts-dejavu-core and fonts-wqy-microhei) under the fallback the console's font
// gets; a missing glyph is drawn as an empty box. The texts a window draws (chart labels included)
// are checked the same way by test_readable_layout.
#include <QApplication>
#include <QFile>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QRegularExpression>
#include <QXmlStreamReader>
#include <QtTest>

namespace {

struct Message {
    QString context, source;
    QStringList translations;  // one, or the numerus forms
    bool finished = true;
};

std::vector<Message> readCatalogue(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1").arg(path);
        return {};
    }
    std::vector<Message> messages;
    QXmlStreamReader xml(&file);
    QString context;
    Message message;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        const auto name = xml.name();
        if (name == QLatin1String("name")) context = xml.readElementText();
        else if (name == QLatin1String("message")) message = Message{context, {}, {}, true};
        else if (name == QLatin1String("source")) message.source = xml.readElementText();
        else if (name == QLatin1String("translation")) {
            const QString type = xml.attributes().value(QLatin1String("type")).toString();
            message.finished = type.isEmpty();
            if (type == QLatin1String("vanished") || type == QLatin1String("obsolete")) continue;
            // Either text, or numerusform children.
            QString text;
            while (!xml.atEnd()) {
                xml.readNext();
                if (xml.isCharacters()) text += xml.text();
                else if (xml.isStartElement() && xml.name() == QLatin1String("numerusform")) message.translations << xml.readElementText();
                else if (xml.isEndElement() && xml.name() == QLatin1String("translation")) break;
            }
            if (message.translations.isEmpty()) message.translations << text;
            messages.push_back(message);
        }
    }
    if (xml.hasError()) *error = QStringLiteral("%1: %2 at line %3").arg(path, xml.errorString()).arg(xml.lineNumber());
    return messages;
}

QStringList placeholders(const QString& text) {
    QStringList found;
    static const QRegularExpression pattern(QStringLiteral("%L?[1-9n]"));
    for (auto it = pattern.globalMatch(text); it.hasNext();) found << it.next().captured().remove(QLatin1Char('L'));
    found.sort();
    return found;
}

}  // namespace

class TestTranslationGlyphs : public QObject {
    Q_OBJECT
private slots:
    void theShippedFontsAreThere();
    void theCheckSeesAMissingGlyph();
    void everyTranslationCanBeDrawn_data();
    void everyTranslationCanBeDrawn();
};

void TestTranslationGlyphs::theShippedFontsAreThere() {
    const QStringList families = QFontDatabase::families();
    for (const QString& family : {QStringLiteral("DejaVu Sans"), QStringLiteral("WenQuanYi Micro Hei")})
        QVERIFY2(families.contains(family), qPrintable(QStringLiteral("font '%1' is not installed (Debian: fonts-dejavu-core, fonts-wqy-microhei; "
                                                                     "./setup.sh installs them)").arg(family)));
}

void TestTranslationGlyphs::theCheckSeesAMissingGlyph() {
    // The coverage test below can fail: a character of a private use area is in no font.
    const QFontMetrics metrics(QApplication::font());
    QVERIFY(!metrics.inFontUcs4(0xF8FF));
    QVERIFY(metrics.inFontUcs4(U'τ'));
    QVERIFY(metrics.inFontUcs4(U'陈'));  // through the fallback to WenQuanYi Micro Hei
}

void TestTranslationGlyphs::everyTranslationCanBeDrawn_data() {
    QTest::addColumn<QString>("language");
    QTest::newRow("de") << QStringLiteral("de");
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
}

void TestTranslationGlyphs::everyTranslationCanBeDrawn() {
    QFETCH(QString, language);
    QString error;
    const std::vector<Message> messages =
        readCatalogue(QStringLiteral(SYNCSCOPE_TRANSLATIONS_DIR "/syncscope_%1.ts").arg(language), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(messages.size() > 400);
    const QFontMetrics metrics(QApplication::font());
    QStringList problems;
    for (const Message& message : messages) {
        const QString where = message.context + QStringLiteral(" \"") + message.source + QLatin1Char('"');
        if (!message.finished) problems << where + QStringLiteral(": not translated");
        for (const QString& text : message.translations) {
            if (text.trimmed().isEmpty()) problems << where + QStringLiteral(": empty");
            if (text.count(QLatin1Char('?')) > message.source.count(QLatin1Char('?')) || text.contains(QChar::ReplacementCharacter))
                problems << where + QStringLiteral(": '?' in \"%1\"").arg(text);
            if (placeholders(text) != placeholders(message.source))
                problems << where + QStringLiteral(": placeholders %1 in \"%2\"").arg(placeholders(text).join(QLatin1Char(' ')), text);
            for (const char32_t c : text.toUcs4())
                if (!QChar::isSpace(c) && QChar::category(c) != QChar::Other_Control && !metrics.inFontUcs4(c))
                    problems << where + QStringLiteral(": U+%1 '%2' in no shipped font").arg(uint(c), 4, 16, QLatin1Char('0')).arg(QString::fromUcs4(&c, 1));
        }
    }
    QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("\n  ") + problems.join(QStringLiteral("\n  "))));
}

QTEST_MAIN(TestTranslationGlyphs)
#include "test_translation_glyphs.moc"
